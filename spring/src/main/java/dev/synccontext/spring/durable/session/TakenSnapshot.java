package dev.synccontext.spring.durable.session;

/**
 * The last snapshot a session took (or restored) on this node, published for monitoring. Immutable: one is made
 * per snapshot taken, so a reader off the context ranks sessions by size without allocating anything per session.
 *
 * @param session the session it belongs to
 * @param bytes   the snapshot; never changed after it is taken
 * @param atNanos when it was taken or restored, on the registry's clock
 */
record TakenSnapshot(DurableSession session, byte[] bytes, long atNanos) {

    int size() {
        return bytes.length;
    }
}
