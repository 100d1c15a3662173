package dev.synccontext;

import org.jspecify.annotations.Nullable;

/**
 * Something a thread can block on whose end needs a context to run a callback: a queued
 * {@code invokeAsync*} future, a future derived from one, a {@code send} waiting for its turn. What
 * {@link WaitGraph} follows to find a cycle.
 */
interface Awaited {

    /**
     * The context that must still run (or finish running) a callback before the wait can end, or null
     * if none must: done already, or waiting on something no context runs (a returned stage). Read
     * again whenever a cycle is checked, so it is never stale for long.
     */
    @Nullable SyncContext neededContext();
}
