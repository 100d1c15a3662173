package dev.synccontext.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeterministicExecutorTest {

    @Test
    void executeNeverRunsTheTask() {
        DeterministicExecutor executor = new DeterministicExecutor();
        List<String> log = new ArrayList<>();
        executor.execute(() -> log.add("ran"));
        assertThat(log).isEmpty();
        assertThat(executor.pending()).isOne();
    }

    @Test
    void withoutASeedTasksRunInSubmissionOrderIncludingThoseTheyQueue() {
        DeterministicExecutor executor = new DeterministicExecutor();
        List<Integer> log = new ArrayList<>();
        executor.execute(() -> {
            log.add(1);
            executor.execute(() -> log.add(3));
        });
        executor.execute(() -> log.add(2));
        assertThat(executor.runUntilIdle()).isEqualTo(3);
        assertThat(log).containsExactly(1, 2, 3);
    }

    @Test
    void theSameSeedGivesTheSameOrderAndSomeSeedGivesAnother() {
        List<Integer> first = order(42);
        assertThat(order(42)).isEqualTo(first);
        assertThat(first).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7);
        boolean another = false;
        for (long seed = 0; seed < 50 && !another; seed++) {
            another = !order(seed).equals(first);
        }
        assertThat(another).as("some seed orders the tasks differently").isTrue();
    }

    private static List<Integer> order(long seed) {
        DeterministicExecutor executor = new DeterministicExecutor(seed);
        List<Integer> log = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            int n = i;
            executor.execute(() -> log.add(n));
        }
        executor.runUntilIdle();
        return log;
    }

    @Test
    void aPendingTaskNamesWhereItWasSubmitted() {
        DeterministicExecutor executor = new DeterministicExecutor();
        executor.execute(() -> { });
        assertThat(executor.pendingSites()).singleElement().asString()
                .contains("DeterministicExecutorTest.aPendingTaskNamesWhereItWasSubmitted(DeterministicExecutorTest.java:");
    }

    @Test
    void workThatRePostsItselfForeverIsStoppedWithAClearError() {
        DeterministicExecutor executor = new DeterministicExecutor();
        Runnable[] again = new Runnable[1];
        again[0] = () -> executor.execute(again[0]);
        executor.execute(again[0]);
        assertThatThrownBy(executor::runUntilIdle).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("re-posts itself forever");
    }
}
