package dev.synccontext.live;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The open channels built with {@link LiveChannel.Builder#group(LiveChannelGroup) this group}: each joins
 * when it is built and leaves when it is closed, so the group never keeps a closed channel reachable. What
 * a shutdown drain walks to tell every subscriber of the application to go away
 * ({@code dev.synccontext.registry.ShutdownDrain}). Thread-safe.
 */
public final class LiveChannelGroup {

    private final Set<LiveChannel> channels = ConcurrentHashMap.newKeySet();

    /** The open channels now (a snapshot). */
    public List<LiveChannel> channels() {
        return List.copyOf(channels);
    }

    /** The open subscribers of every open channel now (a snapshot). */
    public List<LiveSubscriber> subscribers() {
        List<LiveSubscriber> all = new ArrayList<>();
        for (LiveChannel channel : channels) {
            all.addAll(channel.subscribers());
        }
        return all;
    }

    void add(LiveChannel channel) {
        channels.add(channel);
    }

    void remove(LiveChannel channel) {
        channels.remove(channel);
    }
}
