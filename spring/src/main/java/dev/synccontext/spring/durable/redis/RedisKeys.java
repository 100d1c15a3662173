package dev.synccontext.spring.durable.redis;

import dev.synccontext.spring.durable.StateStore;

/** The store's key and channel names, all under one prefix (the layout is in {@link RedisStateStore}). */
final class RedisKeys {

    private final String prefix;
    private final String nodePrefix;

    RedisKeys(String prefix) {
        for (int i = 0; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            if (c < '!' || c > '~') {
                throw new IllegalArgumentException("The Redis key prefix '" + prefix + "' has character U+"
                        + String.format("%04X", (int) c) + " at index " + i
                        + "; use visible ASCII, such as \"myapp:synccontext:\"");
            }
        }
        this.prefix = prefix;
        this.nodePrefix = prefix + "node:";
    }

    String tokens() {
        return prefix + "tokens";
    }

    /** What a script appends an owner's node id to, to find its lease key. */
    String nodePrefix() {
        return nodePrefix;
    }

    String node(String nodeId) {
        return nodePrefix + StateStore.checkNodeId(nodeId);
    }

    String session(String handle) {
        return prefix + "session:" + StateStore.checkHandle(handle);
    }

    String handOffChannel(String nodeId) {
        return prefix + "handoff:" + StateStore.checkNodeId(nodeId);
    }
}
