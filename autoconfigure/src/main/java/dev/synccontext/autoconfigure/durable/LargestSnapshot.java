package dev.synccontext.autoconfigure.durable;

import dev.synccontext.spring.durable.session.SnapshotSize;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One entry of {@code top.durableSnapshots} in {@code /actuator/synccontext}: a session whose durable state is
 * among the largest on this node ({@link SnapshotSize}).
 *
 * @param context            the name of the session's context on this node
 * @param session            the session's handle in the state store
 * @param bytes              the size of its last snapshot (taken at quiescence, or restored)
 * @param beans              each durable bean's share of those bytes, by bean name (the scoped proxy's target
 *                           prefix {@code scopedTarget.} left out)
 * @param ageMillis          how long ago that snapshot was taken or restored
 * @param lastWriteAgoMillis how long ago the store last accepted a snapshot of it from this node; null: not yet
 * @param pending            whether these bytes are not yet in the store
 */
public record LargestSnapshot(String context, String session, int bytes, Map<String, Integer> beans, long ageMillis,
        @Nullable Long lastWriteAgoMillis, boolean pending) {

    private static final String SCOPED_TARGET = "scopedTarget.";

    static LargestSnapshot of(SnapshotSize size) {
        Duration sinceWrite = size.sinceWrite();
        Map<String, Integer> beans = new LinkedHashMap<>();
        size.beans().forEach((name, bytes) -> beans.put(
                name.startsWith(SCOPED_TARGET) ? name.substring(SCOPED_TARGET.length()) : name, bytes));
        return new LargestSnapshot(size.context(), size.session(), size.bytes(), beans, size.age().toMillis(),
                sinceWrite == null ? null : sinceWrite.toMillis(), size.pending());
    }
}
