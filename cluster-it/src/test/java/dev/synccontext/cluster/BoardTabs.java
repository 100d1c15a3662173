package dev.synccontext.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Sessions with one board tab each ({@link SseTabs}), made and changed through nginx, and what their streams carry:
 * a board's events are {@code {"node":…,"count":…}}, ids {@code <epoch>-<sequence>}. Shared by the deploy tests of
 * a session-attribute board and of a durable one; {@code incrementPath} is the application's change.
 */
final class BoardTabs {

    private static final Pattern DATA = Pattern.compile("\\{\"node\":\"([^\"]+)\",\"count\":(\\d+)}");

    private BoardTabs() {
    }

    /** {@code count} new sessions through nginx, each with its own affinity cookie and one change (value 1). */
    static List<SseTabs.Tab> sessions(int port, String incrementPath, int count) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<SseTabs.Tab>> created = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                created.add(pool.submit(() -> {
                    String route = UUID.randomUUID().toString();
                    HttpResponse<String> reply = post(port, incrementPath, "route=" + route);
                    assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
                    assertThat(reply.body()).isEqualTo("1");
                    String session = DurableLoad.sessionCookie(reply)
                            .orElseThrow(() -> new AssertionError("no SESSION cookie set: " + reply.headers()));
                    return new SseTabs.Tab(route, session);
                }));
            }
            List<SseTabs.Tab> tabs = new ArrayList<>();
            for (Future<SseTabs.Tab> tab : created) {
                tabs.add(tab.get(60, TimeUnit.SECONDS));
            }
            return tabs;
        } finally {
            pool.shutdownNow();
        }
    }

    /** One more change of every tab's session through nginx; each answers {@code expected}. */
    static void incrementAll(int port, String incrementPath, List<SseTabs.Tab> tabs, int expected) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<HttpResponse<String>>> replies = new ArrayList<>();
            for (SseTabs.Tab tab : tabs) {
                replies.add(pool.submit(() -> post(port, incrementPath,
                        "route=" + tab.route + "; SESSION=" + tab.session)));
            }
            for (Future<HttpResponse<String>> reply : replies) {
                HttpResponse<String> answered = reply.get(60, TimeUnit.SECONDS);
                assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
                assertThat(answered.body()).isEqualTo(String.valueOf(expected));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A POST without a body, with {@code cookies} set by hand, on the load's shared client (no cookie jar): hundreds
     * of sessions, and a client per session would cost a selector thread each.
     */
    private static HttpResponse<String> post(int port, String path, String cookies) throws Exception {
        return DurableLoad.HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).header("Cookie", cookies).POST(HttpRequest.BodyPublishers.noBody())
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Opens every tab on {@code crowd}, waits for each first event, asserts it is a snapshot showing the session's
     * first change (value 1), and groups the tabs by the node that sent it.
     */
    static Map<String, List<SseTabs.Tab>> openByNode(SseTabs crowd, List<SseTabs.Tab> tabs) {
        tabs.forEach(crowd::open);
        await().atMost(Duration.ofSeconds(60)).until(() -> tabs.stream().allMatch(t -> firstOf(t, 0) != null));
        Map<String, List<SseTabs.Tab>> byNode = new HashMap<>();
        for (SseTabs.Tab tab : tabs) {
            SseTabs.Event snapshot = firstOf(tab, 0);
            assertThat(snapshot.name()).as("%s", tab).isEqualTo("snapshot");
            assertThat(count(snapshot)).as("the snapshot shows the session's value: %s", tab).isEqualTo(1);
            byNode.computeIfAbsent(node(snapshot), n -> new ArrayList<>()).add(tab);
        }
        return byNode;
    }

    /** The tab's stream {@code stream} exists and has received its first event, or has ended without one. */
    static boolean settled(SseTabs.Tab tab, int stream) {
        return tab.streams.size() > stream && (tab.stream(stream).first() != null || tab.stream(stream).ended());
    }

    static SseTabs.@Nullable Event firstOf(SseTabs.Tab tab, int stream) {
        return tab.streams.size() > stream ? tab.stream(stream).first() : null;
    }

    static String node(SseTabs.Event event) {
        return data(event).group(1);
    }

    static int count(SseTabs.Event event) {
        return Integer.parseInt(data(event).group(2));
    }

    private static Matcher data(SseTabs.Event event) {
        Matcher data = DATA.matcher(event.data());
        assertThat(data.matches()).as("board data: %s", event).isTrue();
        return data;
    }

    /** The value of the stream's last board or snapshot event; -1 before any. */
    static int lastCount(SseTabs.Stream stream) {
        List<SseTabs.Event> events = stream.events;
        for (int i = events.size() - 1; i >= 0; i--) {
            if (events.get(i).id() != null) {
                return count(events.get(i));
            }
        }
        return -1;
    }

    static String epoch(String id) {
        return id.substring(0, id.lastIndexOf('-'));
    }

    static List<Long> sequences(SseTabs.Stream stream) {
        return stream.events.stream().filter(e -> e.id() != null)
                .map(e -> Long.parseLong(e.id().substring(e.id().lastIndexOf('-') + 1))).toList();
    }

    /** What {@link #sequences} would be without a gap: consecutive from its first. */
    static List<Long> consecutive(SseTabs.Stream stream) {
        List<Long> sequences = sequences(stream);
        List<Long> expected = new ArrayList<>();
        for (int i = 0; i < sequences.size(); i++) {
            expected.add(sequences.get(0) + i);
        }
        return expected;
    }
}
