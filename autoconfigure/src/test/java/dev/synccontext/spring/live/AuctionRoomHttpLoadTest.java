package dev.synccontext.spring.live;

import dev.synccontext.room.AuctionLoad;
import dev.synccontext.spring.websocket.StompClients;
import dev.synccontext.testing.OnRandomPort;
import dev.synccontext.testing.SseClient;
import static dev.synccontext.room.AuctionLoad.BIDS;
import static dev.synccontext.room.AuctionLoad.TABS;
import static dev.synccontext.room.AuctionLoad.USERS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.testing.Browser;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.messaging.converter.StringMessageConverter;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;
import org.springframework.web.socket.messaging.WebSocketStompClient;

/**
 * The auction room over real servers ({@link AuctionApp} on Tomcat): 50 users bid 20 times each on one room, each
 * bid waiting for its answer, with 100 live streams (two tabs per user on the user's own channel, which the room
 * publishes every accepted bid into). Over MVC: each user a browser (an HTTP session), bids by POST, tabs on SSE.
 * Over STOMP: each user a STOMP session, bids by frames answered with {@code @SendToUser}, tabs on two of the
 * session's destinations. Each run checks: one winner, the highest accepted bid; every stream the snapshot then
 * the room's bid history, in order, no gap; each user's private state ({@code @ContextScoped}) exact: one answer
 * per bid, its accepted bids, "leading" for the winner only, never told "outbid" before its answer. 20 runs of
 * each in the {@code scale} tier; one run of each in the fast tier. The premise bids with the hop-back recipe over
 * MVC until a user is told "outbid" before its answer.
 */
@OnRandomPort(classes = AuctionApp.class, properties = {
        "synccontext.live.policy=disconnect", "synccontext.live.buffer-capacity=2000",
        "synccontext.live.replay-capacity=0", "server.shutdown=immediate"})
class AuctionRoomHttpLoadTest {

    static final int RUNS = 20;
    static final Duration WAIT = Duration.ofSeconds(60);

    private static final AtomicInteger AUCTIONS = new AtomicInteger();

    @LocalServerPort
    int port;

    @ParameterizedTest(name = "over {0}: one run has the same bids on every stream and every user's state exact")
    @EnumSource(Over.class)
    void oneRunHasTheSameBidsOnEveryStreamAndEveryUsersStateExact(Over over) throws Exception {
        runs(1, stack(over));
    }

    @ParameterizedTest(name = "over {0}: every stream has the same bids and every user's state is exact over 20 runs")
    @EnumSource(Over.class)
    @Tag("scale")
    void everyStreamHasTheSameBidsAndEveryUsersStateIsExactOver20Runs(Over over) throws Exception {
        runs(RUNS, stack(over));
    }

    @Test
    @Tag("scale")
    void premiseOverMvcTheHopBackRecipeLetsAnOutbidOvertakeTheAnswer() throws Exception {
        AuctionLoad.assertHopBackReorders("[auction over MVC] ", 40, random -> overMvc(random, "hop-back").users()
                .stream().mapToInt(UserState::outbidBeforeAnswer).sum());
    }

    // ---------------------------------------------------------------- one run over each stack

    @FunctionalInterface
    interface Stack {
        Outcome run(SplittableRandom random) throws Exception;
    }

    /** The stack a run goes over: each user a browser over MVC, or a STOMP session. */
    enum Over { MVC, STOMP }

    private Stack stack(Over over) {
        return switch (over) {
            case MVC -> this::overMvc;
            case STOMP -> this::overStomp;
        };
    }

    private static void runs(int count, Stack stack) throws Exception {
        long seed = Long.getLong("stress.seed", System.nanoTime());
        System.out.println("AuctionRoomHttpLoadTest seed " + seed + " (rerun with -Dstress.seed=" + seed + ")");
        SplittableRandom random = new SplittableRandom(seed);
        for (int run = 0; run < count; run++) {
            long started = System.nanoTime();
            stack.run(random.split()).assertExact("seed " + seed + ", run " + run + ": ");
            System.out.printf("[auction] run %d: %d ms%n", run, (System.nanoTime() - started) / 1_000_000);
        }
    }

    private Outcome overMvc(SplittableRandom random) throws Exception {
        return overMvc(random, "ask");
    }

    private Outcome overMvc(SplittableRandom random, String recipe) throws Exception {
        String auction = "mvc-" + AUCTIONS.incrementAndGet();
        List<Browser> users = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<SseClient> tabs = new ArrayList<>();
        try {
            for (int u = 0; u < USERS; u++) {
                Browser user = new Browser(port);
                names.add(ok(user.post("/auction/" + auction + "/join")));
                users.add(user);
                for (int t = 0; t < TABS; t++) {
                    tabs.add(new SseClient(user.httpClient(), user.uri("/auction/events"), user.cookie("JSESSIONID"),
                            null));
                }
            }
            await().atMost(WAIT).until(() -> tabs.stream().allMatch(tab -> !tab.events.isEmpty()));
            AuctionLoad.run(random, (u, raise) -> {
                String answer = ok(users.get(u).post("/auction/" + auction + "/bid?raise=" + raise + "&recipe="
                        + recipe));
                assertThat(answer).matches("refused|\\d+,.+,\\d+");
            });
            History history = History.parse(ok(users.get(0).get("/auction/" + auction + "/history")));
            await().atMost(WAIT).until(() -> tabs.stream().allMatch(tab -> tab.events.size() >= history.bids().size() + 1));
            List<List<String>> streams = tabs.stream().map(tab -> tab.events.stream().map(e -> unquote(e.data()))
                    .toList()).toList();
            List<UserState> states = new ArrayList<>();
            for (int u = 0; u < USERS; u++) {
                states.add(UserState.parse(names.get(u), ok(users.get(u).get("/auction/me"))));
            }
            return new Outcome(history, streams, states);
        } finally {
            for (SseClient tab : tabs) {
                tab.close();
            }
        }
    }

    private Outcome overStomp(SplittableRandom random) throws Exception {
        String auction = "stomp-" + AUCTIONS.incrementAndGet();
        WebSocketStompClient client = new WebSocketStompClient(new StandardWebSocketClient());
        client.setMessageConverter(new StringMessageConverter());
        List<StompUser> users = new ArrayList<>();
        try {
            for (int u = 0; u < USERS; u++) {
                users.add(new StompUser(StompClients.connect(client, port, "/stomp")));
            }
            List<String> names = new ArrayList<>();
            for (StompUser user : users) {
                names.add(user.join(auction));
            }
            await().atMost(WAIT).until(() -> users.stream().allMatch(user -> user.tabs.values().stream()
                    .allMatch(tab -> !tab.isEmpty())));
            AuctionLoad.run(random, (u, raise) -> {
                String answer = users.get(u).ask("/app/auction/" + auction + "/bid", String.valueOf(raise), "answer");
                assertThat(answer).matches("refused|\\d+,.+,\\d+");
            });
            History history = History.parse(ok(new Browser(port).get("/auction/" + auction + "/history")));
            await().atMost(WAIT).until(() -> users.stream().flatMap(user -> user.tabs.values().stream())
                    .allMatch(tab -> tab.size() >= history.bids().size() + 1));
            List<List<String>> streams = users.stream().flatMap(user -> user.tabs.values().stream())
                    .map(List::copyOf).toList();
            List<UserState> states = new ArrayList<>();
            for (int u = 0; u < USERS; u++) {
                states.add(UserState.parse(names.get(u), users.get(u).ask("/app/auction/me", "", "me")));
            }
            return new Outcome(history, streams, states);
        } finally {
            users.forEach(user -> user.session.disconnect());
            client.stop();
        }
    }

    /** One STOMP user: its session, the replies to its asks by destination, and its two tabs' streams. */
    static final class StompUser {
        final StompSession session;
        final Map<String, BlockingQueue<String>> replies = new ConcurrentHashMap<>();
        final Map<String, List<String>> tabs = new ConcurrentHashMap<>();

        StompUser(StompSession session) {
            this.session = session;
            for (String queue : List.of("joined", "answer", "me")) {
                BlockingQueue<String> received = new LinkedBlockingQueue<>();
                replies.put(queue, received);
                subscribe("/user/queue/" + queue, received::add);
            }
            for (int t = 0; t < TABS; t++) {
                List<String> received = new CopyOnWriteArrayList<>();
                tabs.put("tab-" + t, received);
                subscribe("/user/queue/tab-" + t, payload -> received.add(unquote(payload)));
                // The broker keeps this session's frames in order: the subscription is in place before this.
                session.send("/app/auction/tab", "tab-" + t);
            }
        }

        String join(String auction) throws InterruptedException {
            return ask("/app/auction/" + auction + "/join", "", "joined");
        }

        String ask(String destination, String body, String replyQueue) throws InterruptedException {
            session.send(destination, body);
            String reply = replies.get(replyQueue).poll(WAIT.toSeconds(), SECONDS);
            assertThat(reply).describedAs("the reply to %s on /user/queue/%s", destination, replyQueue).isNotNull();
            return reply;
        }

        private void subscribe(String destination, java.util.function.Consumer<String> receiver) {
            StompClients.subscribe(session, destination, (headers, body) -> receiver.accept(body));
        }
    }

    // ---------------------------------------------------------------- load and checks

    private static String ok(HttpResponse<String> response) {
        assertThat(response.statusCode()).describedAs("%s answered %s", response.uri(), response.body()).isEqualTo(200);
        return response.body();
    }

    /** A stream's data is the JSON of the bid's line: a quoted string. */
    private static String unquote(String json) {
        return json.length() >= 2 && json.startsWith("\"") && json.endsWith("\"") ? json.substring(1, json.length() - 1)
                : json;
    }

    /** The room's history ({@code seq,user,amount} lines) and its highest bid and leader. */
    record History(List<String> bids, int highest, String leader) {
        static History parse(String body) {
            List<String> lines = Arrays.asList(body.split("\n"));
            String[] last = lines.get(lines.size() - 1).split(" ");
            return new History(List.copyOf(lines.subList(0, lines.size() - 1)), Integer.parseInt(last[1]), last[2]);
        }

        String user(String line) {
            return line.split(",")[1];
        }

        int amount(String line) {
            return Integer.parseInt(line.split(",")[2]);
        }
    }

    /** A user's {@code @ContextScoped} bidder as its own request read it. */
    record UserState(String name, int answers, List<Integer> acceptedSeqs, boolean leading, int outbidBeforeAnswer) {
        static UserState parse(String name, String state) {
            String[] parts = state.split(";", -1);
            List<Integer> accepted = parts[1].isEmpty() ? List.of()
                    : Arrays.stream(parts[1].split(",")).map(Integer::valueOf).toList();
            return new UserState(name, Integer.parseInt(parts[0]), accepted, Boolean.parseBoolean(parts[2]),
                    Integer.parseInt(parts[3]));
        }
    }

    record Outcome(History history, List<List<String>> streams, List<UserState> users) {

        void assertExact(String where) {
            List<String> bids = history.bids();
            assertThat(bids).describedAs(where + "bids were taken").isNotEmpty();
            String last = bids.get(bids.size() - 1);
            assertThat(history.highest()).describedAs(where + "the winning amount is the highest accepted bid")
                    .isEqualTo(history.amount(last))
                    .isEqualTo(bids.stream().mapToInt(history::amount).max().orElseThrow());
            assertThat(history.leader()).describedAs(where + "the winner").isEqualTo(history.user(last));
            for (int i = 0; i < bids.size(); i++) {
                assertThat(bids.get(i)).describedAs(where + "bid %d's place", i).startsWith(i + ",");
            }
            List<String> expected = new ArrayList<>();
            expected.add("snapshot");
            expected.addAll(bids);
            for (int s = 0; s < streams.size(); s++) {
                assertThat(streams.get(s)).describedAs(where + "stream %d: the snapshot, then the same bids, in order,"
                        + " no gap", s).isEqualTo(expected);
            }
            int leaders = 0;
            for (UserState user : users) {
                String who = where + "user " + user.name();
                assertThat(user.answers()).describedAs(who + ": one answer per bid").isEqualTo(BIDS);
                assertThat(user.acceptedSeqs()).describedAs(who + ": its accepted bids").isEqualTo(bids.stream()
                        .filter(line -> history.user(line).equals(user.name()))
                        .map(line -> Integer.valueOf(line.split(",")[0])).toList());
                assertThat(user.outbidBeforeAnswer()).describedAs(who + ": outbid before its answer").isZero();
                assertThat(user.leading()).describedAs(who + ": leading").isEqualTo(user.name().equals(history.leader()));
                leaders += user.leading() ? 1 : 0;
            }
            assertThat(leaders).describedAs(where + "one winner").isEqualTo(1);
        }
    }
}
