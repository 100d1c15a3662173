package dev.synccontext.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.registry.SyncContextRegistry;

/** Stops what a two-node cluster test started, in the order that lets each step check the one before. */
final class ClusterTeardown {

    private ClusterTeardown() {
    }

    /**
     * Closes each started node and asserts it released every context, then the redis client and server
     * (whose close asserts that redis-server is no longer running), even when a node's check fails.
     * Any argument may be {@code null}: a start that failed half-way leaves the rest unstarted.
     */
    static void stop(RedisServer redis, RedisClient redisClient, Node... nodes) {
        try {
            for (Node node : nodes) {
                if (node != null) {
                    SyncContextRegistry registry = node.registry();
                    node.close();
                    assertThat(registry.contexts()).as("%s's contexts after shutdown", node.id).isEmpty();
                }
            }
        } finally {
            if (redisClient != null) {
                redisClient.close();
            }
            if (redis != null) {
                redis.close();
            }
        }
    }
}
