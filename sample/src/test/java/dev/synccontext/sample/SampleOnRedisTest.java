package dev.synccontext.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.LocalProcess;
import dev.synccontext.testing.RedisServerProcess;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The sample's {@code redis} profile (README, "Running on Redis") on a real {@code redis-server}: a visitor's board
 * (its {@code @Durable} counter and list, {@link BoardState}) survives a restart of the server. The sample runs in a
 * JVM of its own ({@link SampleProcess}), is stopped with SIGTERM as a deployment stops it (the starter's drain writes
 * every session's final snapshot) and started again on the same port; the visitor's cookies (Spring Session's
 * {@code SESSION}, the {@code XSRF-TOKEN}) are kept in between, as a browser keeps them. The premise: the same
 * without the profile loses the board (sessions in Tomcat's memory, state in the in-memory store).
 */
@Tag("process")
class SampleOnRedisTest {

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    @Test
    void onRedisACheckpointedBoardSurvivesARestartForTheSameSessionCookie() throws Exception {
        restartOnRedis(true);
    }

    @Test
    void onRedisAChangeJustBeforeSigtermSurvivesTheRestart() throws Exception {
        restartOnRedis(false);
    }

    /**
     * Changes a visitor's board on the sample with the {@code redis} profile, SIGTERMs it (after its checkpoint is
     * in the store, or at once: then only the graceful stop's final snapshot can keep the change), starts it again
     * on the same port, and asserts the same cookie shows the same board, restored from the store.
     */
    private static void restartOnRedis(boolean afterCheckpoint) throws Exception {
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            List<String> redisProfile = List.of("--spring.profiles.active=redis",
                    "--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + redis.port);
            int port = LocalProcess.freePort();
            BoardClient visitor = new BoardClient(port);
            String session;
            try (SampleProcess first = SampleProcess.start(port, redisProfile)) {
                session = change(visitor);
                assertThat(session).as("Spring Session's cookie: the sessions are in Redis").isNotNull();
                if (afterCheckpoint) {
                    awaitWritten(visitor);
                }
                assertThat(first.terminate(STOP_TIMEOUT)).as("the sample exits after SIGTERM:%n%s", first.logText())
                        .isTrue();
            }
            try (SampleProcess second = SampleProcess.start(port, redisProfile)) {
                // The stopped node released the session in its drain: the new one takes it at once, no 503.
                BoardClient.Reply board = visitor.get("/api/board");
                assertThat(board.status()).as("the session after the restart: %s", board).isEqualTo(200);
                assertThat(visitor.cookie("SESSION")).as("the same session").isEqualTo(session);
                assertChanged(board.json());
                BoardClient.Reply more = visitor.post("/api/counter/increment");
                assertThat(more.status()).as("%s", more).isEqualTo(200);
                assertThat(more.counter()).as("the counter goes on from the restored value").isEqualTo(4);

                JsonNode durable = durable(visitor);
                assertThat(durable.path("store").path("type").asString()).as("the state store: %s", durable)
                        .isEqualTo("RedisStateStore");
                assertThat(durable.path("counters").path("restoreHits").asLong())
                        .as("the board came from the store: %s", durable).isEqualTo(1);
            }
        }
    }

    /** Polls until the node's durable layer wrote a snapshot (a deadline, not a race). */
    private static void awaitWritten(BoardClient visitor) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (durable(visitor).path("counters").path("snapshotsWritten").asLong() < 1) {
            assertThat(System.nanoTime()).as("no snapshot written within 60 s: %s", durable(visitor))
                    .isLessThan(deadline);
            Thread.sleep(100); // polling a condition with a deadline
        }
    }

    private static JsonNode durable(BoardClient visitor) {
        return visitor.getAsActuator("/actuator/synccontext").json().path("durable");
    }

    @Test
    void premiseWithoutTheRedisProfileARestartLosesTheBoard() throws Exception {
        int port = LocalProcess.freePort();
        BoardClient visitor = new BoardClient(port);
        String session;
        try (SampleProcess first = SampleProcess.start(port, List.of())) {
            change(visitor);
            session = visitor.sessionId();
            assertThat(session).as("Tomcat's session cookie").isNotNull();
            assertThat(first.terminate(STOP_TIMEOUT)).as("the sample exits after SIGTERM:%n%s", first.logText())
                    .isTrue();
        }
        try (SampleProcess second = SampleProcess.start(port, List.of())) {
            BoardClient.Reply board = visitor.get("/api/board");
            assertThat(board.status()).as("%s", board).isEqualTo(200);
            assertThat(visitor.sessionId()).as("a new session: the old one lived in the stopped server's memory")
                    .isNotEqualTo(session);
            assertThat(board.counter()).as("the board starts over").isZero();
            assertThat(board.json().path("items").size()).isZero();
        }
    }

    /** Starts the visitor's session and changes its board: counter 3, one item, ticked. Answers the SESSION cookie. */
    private static String change(BoardClient visitor) {
        assertThat(visitor.get("/api/board").status()).isEqualTo(200);
        for (int i = 1; i <= 3; i++) {
            BoardClient.Reply reply = visitor.post("/api/counter/increment");
            assertThat(reply.status()).as("%s", reply).isEqualTo(200);
            assertThat(reply.counter()).isEqualTo(i);
        }
        BoardClient.Reply added = visitor.postForm("/api/items", "text", "survive the restart");
        assertThat(added.status()).as("%s", added).isEqualTo(200);
        long id = added.json().path("items").get(0).path("id").asLong();
        BoardClient.Reply ticked = visitor.post("/api/items/" + id + "/toggle");
        assertThat(ticked.status()).as("%s", ticked).isEqualTo(200);
        assertChanged(ticked.json());
        return visitor.cookie("SESSION");
    }

    private static void assertChanged(JsonNode board) {
        assertThat(board.path("counter").asLong()).as("the counter: %s", board).isEqualTo(3);
        assertThat(board.path("items").size()).as("the list: %s", board).isEqualTo(1);
        assertThat(board.path("items").get(0).path("text").asString()).isEqualTo("survive the restart");
        assertThat(board.path("items").get(0).path("done").asBoolean()).as("the item ticked").isTrue();
    }
}
