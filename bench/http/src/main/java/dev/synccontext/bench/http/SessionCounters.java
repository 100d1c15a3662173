package dev.synccontext.bench.http;

/**
 * One session's three counters, one per way of serializing (plain fields: each way is its own
 * guarantee). {@code viaContext} is only touched inside the session's context, {@code underMutex} only
 * under the session mutex, {@code unserialized} by any request thread at any time (lost updates expected).
 */
final class SessionCounters {

    int viaContext;
    int underMutex;
    int unserialized;
}
