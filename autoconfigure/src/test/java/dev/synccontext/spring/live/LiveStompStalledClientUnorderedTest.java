package dev.synccontext.spring.live;

import dev.synccontext.testing.OnRandomPort;

/**
 * {@link LiveStompStalledClientTest} in Spring's default mode (no {@code setPreservePublishOrder}), with Spring's
 * default limits (10 s send time, 512 KB buffer): the stalled session's messages pile up in its
 * {@code ConcurrentWebSocketSessionDecorator} behind the one write that is stuck, the buffer limit closes the
 * session ({@code SESSION_NOT_RELIABLE}), and its subscriber ends as too slow, counted as a slow disconnect in the
 * live metrics. The healthy subscriber still gets every message, in the order Spring's outbound pool delivers.
 */
@OnRandomPort(classes = {LiveStompTest.App.class, LiveStompStalledClientTest.Probe.class},
        properties = {"synccontext.live.buffer-capacity=256",
                "synccontext.blocked-threshold=500ms", "server.shutdown=immediate",
                "test.stomp.preserve-publish-order=false"})
class LiveStompStalledClientUnorderedTest extends LiveStompStalledClientTest {

    @Override
    boolean ordered() {
        return false;
    }
}
