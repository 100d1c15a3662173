package dev.synccontext.spring.durable;

/**
 * A snapshot the {@link SnapshotCodec} will not write or restore, with the {@link Reason}. Nothing of a refused
 * snapshot is bound to a class or run: a node that meets one starts the session's beans fresh (and logs it), and
 * the stored bytes stay untouched for inspection until the next accepted write replaces them.
 */
public final class SnapshotRefusedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why a snapshot was refused; each constant says what to do. */
    public enum Reason {
        /** Not a snapshot envelope this version reads (not JSON, truncated, a missing or extra field, another format): corrupt or foreign bytes; nothing to fix but the writer. */
        MALFORMED,
        /** Larger than the codec's budget, on writing or reading: shrink the beans' state or raise {@code maxBytes}. */
        OVERSIZED,
        /** Names a durable type this node does not register: register it (or keep its name when renaming the class). */
        UNKNOWN_TYPE,
        /** An older version without upgrade steps to the current: add the step. */
        UNKNOWN_VERSION,
        /**
         * A version newer than this node's: written by a newer deployment (a rolling deploy under way). Unlike the
         * others this one does not start the session new: the node refuses the session (503) and never writes, so
         * that the newer snapshot stays for the newer nodes.
         */
        NEWER_VERSION,
        /** An upgrade step threw or returned null: fix the step. */
        MIGRATION_FAILED,
        /** The (upgraded) state does not bind to the type's class: bump the version and add an upgrade step. */
        UNREADABLE_STATE,
        /** On writing: a bean's class is not registered, or the mapper cannot write it: register it, or fix its JSON mapping. */
        UNWRITABLE_STATE
    }

    private final Reason reason;

    SnapshotRefusedException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    SnapshotRefusedException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    /** Why the snapshot was refused. */
    public Reason reason() {
        return reason;
    }
}
