package dev.synccontext.autoconfigure.endpoint;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.autoconfigure.durable.LargestSnapshot;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.live.LiveChannelGroup;
import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.autoconfigure.endpoint.SyncContextEndpoint.BufferedChannel;
import dev.synccontext.autoconfigure.endpoint.SyncContextEndpoint.QueuedContext;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.statistics.SyncContextStatistics;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Who holds the memory on this node: the contexts with the most callbacks queued, the live channels with the
 * most messages buffered for their subscribers, and the sessions with the largest durable snapshots (ranked by
 * the durable layer, in a heap of this many), largest first, only those holding any. One pass over the
 * open contexts (and channels), read without stopping them: each figure is that object's own at the moment it
 * was read.
 *
 * <p>Live channels buffer messages, not bytes: a message's payload is encoded only as its subscriber's
 * transport writes it, so its size is unknown until then. The count, with the subscribers' high-water mark,
 * is what there is to rank by.
 */
final class TopContexts {

    private final SyncContextRegistry registry;
    private final int top;

    TopContexts(SyncContextRegistry registry, int top) {
        this.registry = registry;
        this.top = top;
    }

    /** The contexts of the scopes {@code scopes} accepts with the most queued callbacks. */
    List<QueuedContext> byQueuedCallbacks(Predicate<String> scopes) {
        List<String> scopeNames = registry.statistics().stream().map(SyncContextStatistics::scope).filter(scopes).toList();
        List<QueuedContext> found = new ArrayList<>();
        for (RendererSyncContext context : registry.contexts()) {
            int depth = context.queueDepth();
            if (depth == 0) {
                continue;
            }
            String scope = scopeOf(context, scopeNames);
            if (scope != null) {
                found.add(new QueuedContext(context.name(), scope, depth));
            }
        }
        found.sort(Comparator.comparingInt(QueuedContext::queuedCallbacks).reversed()
                .thenComparing(QueuedContext::context));
        return found.subList(0, Math.min(top, found.size()));
    }

    /** The live channels of {@code group} with the most messages buffered, summed over their subscribers. */
    List<BufferedChannel> byBufferedMessages(LiveChannelGroup group) {
        List<BufferedChannel> found = new ArrayList<>();
        for (LiveChannel channel : group.channels()) {
            long buffered = 0;
            int highWater = 0;
            List<LiveSubscriber> subscribers = channel.subscribers();
            for (LiveSubscriber subscriber : subscribers) {
                buffered += subscriber.buffered();
                highWater = Math.max(highWater, subscriber.highWater());
            }
            if (buffered > 0) {
                found.add(new BufferedChannel(channel.name(), subscribers.size(), buffered, highWater));
            }
        }
        found.sort(Comparator.comparingLong(BufferedChannel::bufferedMessages).reversed()
                .thenComparing(BufferedChannel::channel));
        return found.subList(0, Math.min(top, found.size()));
    }

    /** The sessions with the largest durable snapshots, as {@code durable} lists them at most this many. */
    List<LargestSnapshot> bySnapshotBytes(IntFunction<List<LargestSnapshot>> durable) {
        return durable.apply(top);
    }

    private @Nullable String scopeOf(RendererSyncContext context, List<String> scopes) {
        for (String scope : scopes) {
            if (registry.belongsTo(context, scope)) {
                return scope;
            }
        }
        return null;
    }
}
