package dev.synccontext.autoconfigure.durable;

import static dev.synccontext.autoconfigure.durable.DurableNodes.browser;
import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.ContextClock;
import dev.synccontext.spring.durable.ForwardingStateStore;
import dev.synccontext.spring.durable.InMemoryStateStore;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.spring.durable.WriteOutcome;
import dev.synccontext.testing.Browser;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code synccontext.durable.write-through=true} over real HTTP (Tomcat, one node of {@link DurableApp}, an
 * in-memory store behind a decorator that records every accepted snapshot and can refuse or fail writes; one node
 * for every test, each with its own session): an answer is given only after its snapshot was accepted, and a
 * refused or failed write is never answered as success. The debounce is an hour, so
 * only write-through can have written anything while a test runs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WriteThroughHttpTest {

    private final SwitchableStore store = new SwitchableStore(new InMemoryStateStore(ContextClock.system()));
    /** One node with write-through for every test (each with its own session); the premise starts its own. */
    private ConfigurableApplicationContext node;

    @BeforeAll
    void startNode() {
        node = start(true, store);
    }

    @AfterAll
    void stopNode() {
        node.close();
    }

    @AfterEach
    void storeWorks() {
        store.refuse = false;
        store.fail = false;
    }

    @Test
    void eachAnswerIsGivenOnlyAfterItsSnapshotWasAccepted() {
        Browser browser = browser(node);
        int before = store.acceptedCount();
        for (int i = 1; i <= 5; i++) {
            HttpResponse<String> reply = browser.post("/counter");
            assertThat(reply.body()).isEqualTo(String.valueOf(i));
            assertThat(store.lastAccepted()).as("the snapshot accepted before answer %d was given", i)
                    .contains("\"count\":" + i);
        }
        assertThat(store.acceptedCount() - before).as("one write per changing answer").isEqualTo(5);
    }

    @Test
    void anAnswerThatChangedNothingWritesNothing() {
        Browser browser = browser(node);
        browser.post("/counter");
        int before = store.acceptedCount();
        for (int i = 0; i < 3; i++) {
            assertThat(browser.get("/counter").body()).isEqualTo("1");
        }
        assertThat(store.acceptedCount() - before).as("reads are clean").isZero();
    }

    @Test
    void withoutWriteThroughTheAnswerComesBeforeTheDebouncedWrite() {
        SwitchableStore own = new SwitchableStore(new InMemoryStateStore(ContextClock.system()));
        ConfigurableApplicationContext plain = start(false, own);
        try {
            Browser browser = browser(plain);
            for (int i = 1; i <= 3; i++) {
                assertThat(browser.post("/counter").body()).isEqualTo(String.valueOf(i));
            }
            assertThat(own.acceptedCount()).as("the premise: answers shown, nothing stored yet (debounce 1 h)")
                    .isZero();
        } finally {
            plain.close();
        }
    }

    @Test
    void aRefusedWriteIsAnswered503AndTheRetryContinuesFromTheStoredState() {
        Browser browser = browser(node);
        assertARefusedWriteIsAnswered503AndNotKept(browser, store);
        assertThat(store.lastAccepted()).contains("\"count\":3");
    }

    @Test
    void aWriteTheStoreDidNotConfirmIsAnswered503AndTheRetryContinuesFromTheStoredState() {
        Browser browser = browser(node);
        browser.post("/counter");
        store.fail = true;
        HttpResponse<String> failed = browser.post("/counter");
        assertThat(failed.statusCode()).as(failed.body()).isEqualTo(503);
        assertThat(failed.body()).as("the message names the session and the handler")
                .contains("is not available on node").contains("CounterController#increment");
        store.fail = false;
        assertThat(browser.post("/counter").body()).isEqualTo("2");
    }

    /**
     * Two writes of {@code browser}'s session, then one {@code store} refuses: answered 503 with a Retry-After;
     * once the store takes writes again, the retry answers 3, so the refused 3 was neither shown nor kept.
     */
    static void assertARefusedWriteIsAnswered503AndNotKept(Browser browser, SwitchableStore store) {
        browser.post("/counter");
        browser.post("/counter");
        store.refuse = true;
        HttpResponse<String> refused = browser.post("/counter");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Retry-After")).as("Retry-After").isPresent();
        store.refuse = false;
        assertThat(browser.post("/counter").body()).as("the unsaved 3 was never shown as success, nor kept")
                .isEqualTo("3");
    }

    /** A node of its own on {@code store}, with write-through on or off. */
    private static ConfigurableApplicationContext start(boolean writeThrough, SwitchableStore store) {
        DurableNodes nodes = new DurableNodes(store);
        return nodes.start("synccontext.durable.debounce=1h", "synccontext.durable.write-through=" + writeThrough,
                "spring.mvc.problemdetails.enabled=true");
    }

    /** The in-memory store, recording accepted snapshots; {@code refuse} answers STALE, {@code fail} throws. */
    static final class SwitchableStore extends ForwardingStateStore {
        final List<String> accepted = new ArrayList<>();
        volatile boolean refuse;
        volatile boolean fail;

        SwitchableStore(StateStore delegate) {
            super(delegate);
        }

        synchronized int acceptedCount() {
            return accepted.size();
        }

        synchronized String lastAccepted() {
            return accepted.isEmpty() ? "" : accepted.get(accepted.size() - 1);
        }

        @Override
        public WriteOutcome write(String handle, long token, byte[] snapshot, Duration idleTimeout) {
            if (fail) {
                throw new IllegalStateException("the store is down (test)");
            }
            if (refuse) {
                return WriteOutcome.STALE;
            }
            WriteOutcome outcome = super.write(handle, token, snapshot, idleTimeout);
            if (outcome == WriteOutcome.ACCEPTED) {
                synchronized (this) {
                    accepted.add(new String(snapshot, StandardCharsets.UTF_8));
                }
            }
            return outcome;
        }
    }
}
