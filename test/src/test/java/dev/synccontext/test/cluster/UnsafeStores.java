package dev.synccontext.test.cluster;

import dev.synccontext.spring.durable.ForwardingStateStore;
import dev.synccontext.spring.durable.NodeLease;
import dev.synccontext.spring.durable.Ownership;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.spring.durable.StoredSnapshot;
import dev.synccontext.spring.durable.WriteOutcome;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Stores that break one guarantee on purpose, for the premises: that the scenarios can fail, and fail for the
 * reason they claim to test. Each keeps the snapshots itself and forwards the rest to the real store.
 */
final class UnsafeStores {

    private UnsafeStores() {
    }

    /** Grants every acquire at once, owned elsewhere or not (no lease); writes stay fenced by the last token. */
    static StateStore grantingWithoutLease(StateStore real) {
        return new Forwarding(real) {
            private final Map<String, Long> granted = new HashMap<>();
            private long next = 1_000_000;

            @Override
            public synchronized Ownership acquire(String handle, NodeLease lease, Duration idleTimeout) {
                long previous = granted.getOrDefault(handle, 0L);
                granted.put(handle, ++next);
                return new Ownership.Acquired(next, previous);
            }

            @Override
            public synchronized WriteOutcome write(String handle, long token, byte[] snapshot, Duration idle) {
                if (granted.getOrDefault(handle, 0L) != token) {
                    return WriteOutcome.STALE;
                }
                return super.write(handle, token, snapshot, idle);
            }
        };
    }

    /** Keeps the leases, but accepts every write, whatever its token (no fence). */
    static StateStore writingWithoutFencing(StateStore real) {
        return new Forwarding(real);
    }

    /** Leases and messages from the real store; snapshots kept here, every write accepted. */
    private static class Forwarding extends ForwardingStateStore {
        private final Map<String, StoredSnapshot> data = new HashMap<>();

        Forwarding(StateStore real) {
            super(real);
        }

        @Override
        public synchronized WriteOutcome write(String handle, long token, byte[] snapshot, Duration idleTimeout) {
            data.put(handle, new StoredSnapshot(token, snapshot.clone()));
            return WriteOutcome.ACCEPTED;
        }

        @Override
        public synchronized Optional<StoredSnapshot> read(String handle) {
            return Optional.ofNullable(data.get(handle));
        }

        @Override
        public synchronized void delete(String handle) {
            data.remove(handle);
            delegate().delete(handle);
        }
    }
}
