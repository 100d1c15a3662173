package dev.synccontext.spring.durable.redis;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A {@code redis-server} of the test class's own ({@link LettuceRedisServer}) with a {@link RedisStateStore} on
 * it, for a {@code static} {@code @RegisterExtension} field: started before the class's first test; after its
 * last, the store is closed, its connections destroyed, and the server stopped and asserted gone.
 */
final class RedisStoreExtension implements BeforeAllCallback, AfterAllCallback {

    /** The server, for the raw commands a test inspects or tampers with; set before the class's first test. */
    LettuceRedisServer redis;
    /** The store's connection factory, for another store on the same server. */
    LettuceConnectionFactory connections;
    /** The store under test. */
    RedisStateStore store;

    @Override
    public void beforeAll(ExtensionContext context) {
        redis = LettuceRedisServer.start();
        connections = redis.connectionFactory();
        store = new RedisStateStore(connections);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        store.close();
        connections.destroy();
        redis.close(); // asserts that redis-server is no longer running
    }
}
