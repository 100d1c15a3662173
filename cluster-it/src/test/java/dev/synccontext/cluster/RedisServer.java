package dev.synccontext.cluster;

import dev.synccontext.testing.RedisServerProcess;

/** Core's test {@link RedisServerProcess}, with this module's RESP client for what the tests inspect in Redis. */
final class RedisServer extends RedisServerProcess {

    private RedisServer() {
    }

    public static RedisServer start() {
        return new RedisServer();
    }

    RedisClient client() {
        return new RedisClient(port);
    }
}
