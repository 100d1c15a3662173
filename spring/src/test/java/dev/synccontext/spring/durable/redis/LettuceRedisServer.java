package dev.synccontext.spring.durable.redis;

import dev.synccontext.testing.RedisServerProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Core's test {@link RedisServerProcess} (a {@code redis-server} of this test's own, stopped and checked gone by
 * {@link #close()}), with what the store's tests talk to it through: a Spring Data connection factory for the
 * store and a raw Lettuce connection for what a test inspects or tampers with.
 */
final class LettuceRedisServer extends RedisServerProcess {

    private final RedisClient rawClient;
    private final StatefulRedisConnection<String, String> rawConnection;

    private LettuceRedisServer() {
        this.rawClient = RedisClient.create(RedisURI.create("127.0.0.1", port));
        try {
            this.rawConnection = rawClient.connect();
        } catch (RuntimeException notConnected) {
            rawClient.shutdown();
            super.close(); // the server it answered PING on is not left running
            throw notConnected;
        }
    }

    public static LettuceRedisServer start() {
        return new LettuceRedisServer();
    }

    /** A connection factory for the store under test; the caller destroys it. */
    LettuceConnectionFactory connectionFactory() {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", port));
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    /** Raw commands, past the store: what a test inspects, resets or tampers with. */
    RedisCommands<String, String> raw() {
        return rawConnection.sync();
    }

    /** Closes the raw connection, then stops the server and asserts it is gone, and deletes its directory. */
    @Override
    public void close() {
        rawConnection.close();
        rawClient.shutdown();
        super.close();
    }
}
