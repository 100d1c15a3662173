package dev.synccontext.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Browser tabs on {@link DurableBoard}s, each its own session, for a test that deploys the node a tab is on: which
 * tabs a node holds, that each of them followed its session to the node it moved to (the going-away, the reconnect
 * with its {@code Last-Event-ID}, a snapshot of the restored count there), and that later changes reach it there.
 * Tab {@code j}'s session is incremented {@code j % 3 + 1} times before its stream opens, so a snapshot showing
 * another session's count, or none, cannot pass.
 */
final class DurableTabs implements AutoCloseable {

    private static final Pattern DATA = Pattern.compile("\\{\"node\":\"([^\"]+)\",\"count\":(\\d+)}");

    private final SseTabs crowd;
    private final List<SseTabs.Tab> tabs = new ArrayList<>();
    private final Map<SseTabs.Tab, Integer> counts = new HashMap<>();

    private DurableTabs(int port) {
        this.crowd = new SseTabs(port);
    }

    /** {@code count} sessions made through nginx on {@code port}, each with its counts and one tab open on it. */
    static DurableTabs open(int port, int count) {
        DurableTabs opened = new DurableTabs(port);
        for (int j = 0; j < count; j++) {
            String route = UUID.randomUUID().toString();
            PlainHttp.Reply first = PlainHttp.post(port, "/durable/increment", "route=" + route);
            assertThat(first.status()).as("a new session's first increment: %s", first.body()).isEqualTo(200);
            SseTabs.Tab tab = new SseTabs.Tab(route, first.cookie("SESSION"));
            int increments = j % 3 + 1;
            for (int i = 2; i <= increments; i++) {
                PlainHttp.Reply reply = PlainHttp.post(port, "/durable/increment", cookies(tab));
                assertThat(reply.body()).as("increment %d of tab %d", i, j).isEqualTo(String.valueOf(i));
            }
            opened.tabs.add(tab);
            opened.counts.put(tab, increments);
        }
        opened.tabs.forEach(opened.crowd::open);
        await().atMost(Duration.ofSeconds(60)).until(() -> opened.tabs.stream().allMatch(t -> t.last().first() != null));
        for (SseTabs.Tab tab : opened.tabs) {
            SseTabs.Event first = tab.stream(0).first();
            assertThat(first.name()).as("a new tab's first event: %s", tab).isEqualTo("snapshot");
            assertThat(count(first)).as("the snapshot shows the session's count: %s", tab).isEqualTo(opened.counts.get(tab));
        }
        return opened;
    }

    /** The tabs whose current stream is open on {@code node}, each with the index of that stream. */
    Map<SseTabs.Tab, Integer> on(String node) {
        Map<SseTabs.Tab, Integer> on = new HashMap<>();
        for (SseTabs.Tab tab : tabs) {
            SseTabs.Stream current = tab.last();
            if (!current.ended() && current.first() != null && node(current.first()).equals(node)) {
                on.put(tab, tab.streams.size() - 1);
            }
        }
        return on;
    }

    /**
     * Each tab that was on a node now stopped (its stream at the given index) got {@code going-away} as the last
     * event of a stream the node completed, reconnected once with the id of the last event it had, and got from
     * node {@code to} (whose {@code /durable/arrivals} {@code arrivalsOnTo} answers: session id and Last-Event-ID per
     * event-stream request) a
     * {@code 200} whose first event is a snapshot of its session's count as the old node had acknowledged it, under
     * another epoch: the old node's ids mean nothing there, so no replay, and no gap or error either. A failure
     * names every refused reconnect and {@code balancerLog}'s lines.
     */
    void assertFollowed(Map<SseTabs.Tab, Integer> moved, String to, Function<String, String> arrivalsOnTo,
            Supplier<List<String>> balancerLog) {
        await().atMost(Duration.ofSeconds(30)).until(() -> moved.entrySet().stream()
                .allMatch(e -> e.getKey().streams.size() > e.getValue() + 1
                        && (e.getKey().stream(e.getValue() + 1).first() != null
                                || e.getKey().stream(e.getValue() + 1).ended())));
        List<String> refused = moved.entrySet().stream()
                .filter(e -> e.getKey().stream(e.getValue() + 1).status != 200)
                .map(e -> e.getKey().stream(e.getValue() + 1).toString()).toList();
        assertThat(refused).as("reconnects of the %d tabs that moved not answered 200; the balancer's log: %s",
                moved.size(), balancerLog.get()).isEmpty();
        String arrivals = arrivalsOnTo.apply("/durable/arrivals"); // a JSON array of strings
        moved.forEach((tab, index) -> {
            SseTabs.Stream old = tab.stream(index);
            assertThat(old.events.get(old.events.size() - 1).name()).as("going-away came last: %s", tab)
                    .isEqualTo("going-away");
            assertThat(old.completed).as("the stopping node completed the stream: %s", tab).isTrue();
            String lastIdOnOld = lastId(old);
            SseTabs.Stream next = tab.stream(index + 1);
            assertThat(tab.streams).as("one reconnect, straight to the other node: %s", tab).hasSize(index + 2);
            assertThat(next.lastEventIdSent).as("the reconnect sent the last id it had").isEqualTo(lastIdOnOld);
            assertThat(next.status).as("the reconnect's answer: %s", tab).isEqualTo(200);
            SseTabs.Event first = next.first();
            assertThat(first.name()).as("a snapshot, not a replay: %s", tab).isEqualTo("snapshot");
            assertThat(node(first)).as("the node it landed on").isEqualTo(to);
            assertThat(count(first)).as("the restored count, as the old node acknowledged it: %s", tab)
                    .isEqualTo(counts.get(tab));
            assertThat(epoch(first.id())).as("the new node's channel has its own epoch").isNotEqualTo(epoch(lastIdOnOld));
            assertThat(arrivals).as("node %s got the tab's session and Last-Event-ID", to)
                    .contains("\"" + tab.sessionId() + " " + lastIdOnOld + "\"");
        });
    }

    /**
     * One more increment of every tab's session, sent straight to the node its stream is on (through the balancer a
     * session may be sent elsewhere, which would take the session from under the tab); each tab gets the new count
     * as the next event of its stream, its ids consecutive.
     */
    void assertChangesArrive(ToIntFunction<String> portOfNode) {
        for (SseTabs.Tab tab : tabs) {
            String node = node(tab.last().first());
            PlainHttp.Reply reply = PlainHttp.post(portOfNode.applyAsInt(node), "/durable/increment", cookies(tab));
            counts.merge(tab, 1, Integer::sum);
            assertThat(reply.status()).as("an increment on %s: %s", node, reply.body()).isEqualTo(200);
            assertThat(reply.body()).isEqualTo(String.valueOf(counts.get(tab)));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> tabs.stream()
                .allMatch(t -> lastCount(t.last()) == counts.get(t)));
        for (SseTabs.Tab tab : tabs) {
            SseTabs.Stream current = tab.last();
            assertThat(current.ended()).as("the tab's stream stays open: %s", tab).isFalse();
            SseTabs.Event last = current.events.get(current.events.size() - 1);
            assertThat(last.name()).as("the change arrived as a board event: %s", tab).isEqualTo("board");
            List<Long> sequences = current.events.stream().filter(e -> e.id() != null).map(e -> sequence(e.id())).toList();
            for (int i = 1; i < sequences.size(); i++) {
                assertThat(sequences.get(i)).as("ids without a gap: %s", tab).isEqualTo(sequences.get(0) + i);
            }
        }
        assertThat(crowd.failure()).isNull();
    }

    int size() {
        return tabs.size();
    }

    private static String cookies(SseTabs.Tab tab) {
        return "route=" + tab.route + "; SESSION=" + tab.session;
    }

    private static String lastId(SseTabs.Stream stream) {
        for (int i = stream.events.size() - 1; i >= 0; i--) {
            if (stream.events.get(i).id() != null) {
                return stream.events.get(i).id();
            }
        }
        throw new AssertionError("no event with an id: " + stream);
    }

    private static int lastCount(SseTabs.Stream stream) {
        for (int i = stream.events.size() - 1; i >= 0; i--) {
            if (stream.events.get(i).id() != null) {
                return count(stream.events.get(i));
            }
        }
        return -1;
    }

    static String node(SseTabs.Event event) {
        return data(event).group(1);
    }

    private static int count(SseTabs.Event event) {
        return Integer.parseInt(data(event).group(2));
    }

    private static Matcher data(SseTabs.Event event) {
        Matcher data = DATA.matcher(event.data());
        assertThat(data.matches()).as("board data: %s", event).isTrue();
        return data;
    }

    private static String epoch(String id) {
        return id.substring(0, id.lastIndexOf('-'));
    }

    private static long sequence(String id) {
        return Long.parseLong(id.substring(id.lastIndexOf('-') + 1));
    }

    @Override
    public void close() {
        crowd.close();
    }
}
