package dev.synccontext.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.synccontext.sample.BoardClient.Reply;

/**
 * The point of the sample: the board's counter is a plain {@code long}, and many threads clicking on
 * one session at once still count exactly, because every click runs on the session's context.
 */
@SampleServerTest
class SerializationProofTest {

    static final int THREADS = 8;
    static final int CLICKS_PER_THREAD = 500;
    static final int TOTAL = THREADS * CLICKS_PER_THREAD;

    @Test
    void concurrentClicksOnOneSessionCountExactlyAndEveryTabSeesTheFinalValue(BoardClient session,
            BoardClient otherSession) throws Exception {
        assertThat(session.get("/api/board").counter()).isZero();
        assertThat(otherSession.get("/api/board").counter()).isZero();

        List<EventStream> tabs = List.of(session.events(), session.events(), session.events());
        EventStream otherTab = otherSession.events();
        try {
            for (EventStream tab : tabs) {
                assertThat(tab.status()).isEqualTo(200);
                tab.awaitFirstBoard();
            }
            otherTab.awaitFirstBoard();

            List<Long> answered = clickConcurrently(session);

            assertThat(answered).as("every click answered").hasSize(TOTAL);
            assertThat(answered.stream().sorted().toList())
                    .as("each click saw a distinct counter value 1..%d: no lost update, no double count", TOTAL)
                    .isEqualTo(LongStream.rangeClosed(1, TOTAL).boxed().toList());
            assertThat(session.get("/api/board").counter()).as("final counter").isEqualTo(TOTAL);

            for (EventStream tab : tabs) {
                tab.awaitCounter(TOTAL);
                List<JsonNode> seen = tab.boards();
                assertThat(seen).as("a tab saw the board change").hasSizeGreaterThan(1);
                for (int i = 1; i < seen.size(); i++) {
                    long previous = seen.get(i - 1).get("version").asLong();
                    long current = seen.get(i).get("version").asLong();
                    assertThat(current).as("versions arrive strictly in order (event %d of a tab)", i)
                            .isGreaterThan(previous);
                    assertThat(seen.get(i).get("counter").asLong()).as("the counter never goes back")
                            .isGreaterThanOrEqualTo(seen.get(i - 1).get("counter").asLong());
                }
            }
            assertThat(otherSession.get("/api/board").counter()).as("the other session is untouched").isZero();
            assertThat(otherTab.boards()).as("the other session's tab never saw a click")
                    .allSatisfy(board -> assertThat(board.get("counter").asLong()).isZero());
        } finally {
            tabs.forEach(EventStream::close);
            otherTab.close();
        }
    }

    private static List<Long> clickConcurrently(BoardClient session) throws Exception {
        ExecutorService clickers = Executors.newFixedThreadPool(THREADS);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<List<Long>>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                Callable<List<Long>> clicker = () -> {
                    start.await();
                    List<Long> counters = new ArrayList<>(CLICKS_PER_THREAD);
                    for (int i = 0; i < CLICKS_PER_THREAD; i++) {
                        Reply reply = session.post("/api/counter/increment");
                        assertThat(reply.status()).as("click answered %s", reply).isEqualTo(200);
                        counters.add(reply.counter());
                    }
                    return counters;
                };
                results.add(clickers.submit(clicker));
            }
            start.countDown();
            List<Long> all = new ArrayList<>(TOTAL);
            for (Future<List<Long>> result : results) {
                all.addAll(result.get(120, TimeUnit.SECONDS));
            }
            return all;
        } finally {
            clickers.shutdownNow();
        }
    }
}
