package dev.synccontext.spring.durable.session;

import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * How much one session's durable state weighs on this node: its last snapshot, taken at quiescence (or restored
 * from the store), as {@link DurableContexts#largestSnapshots(int)} lists it.
 *
 * @param session   the session's handle in the state store
 * @param context   the name of the session's context on this node
 * @param bytes     the snapshot's size, the bytes every write of it sends to the store
 * @param beans     each durable bean's share of those bytes (its entry in the snapshot), by bean name, in the
 *                  snapshot's order; empty when the snapshot could not be read back
 * @param age       how long ago the snapshot was taken or restored: the state it holds is at least this old
 * @param sinceWrite how long ago the store last accepted a snapshot of this session from this node; null when it
 *                  has not yet (a restored session that has not changed since)
 * @param pending   whether these bytes are not yet in the store (a write is under way or waits for a retry)
 */
public record SnapshotSize(String session, String context, int bytes, Map<String, Integer> beans, Duration age,
        @Nullable Duration sinceWrite, boolean pending) {
}
