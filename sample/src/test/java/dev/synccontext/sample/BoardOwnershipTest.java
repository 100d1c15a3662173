package dev.synccontext.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.live.LiveChannels;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;
import java.util.concurrent.ForkJoinPool;

/** The board's plain fields are safe only on its context, so touching them anywhere else fails loudly. */
class BoardOwnershipTest {

    final RendererSyncContext context = RendererSyncContext.builder().name("session-test").build();
    final Board board = new Board(context,
            new SyncContextRegistry(ContextTemplate.defaults(ForkJoinPool.commonPool(), "common-pool")),
            new LiveBoards(),
            new SampleProperties(5, 80, Duration.ZERO),
            new LiveChannels(ForkJoinPool.commonPool()), new BoardState());

    @AfterEach
    void close() {
        context.close();
    }

    @Test
    void mutatingOutsideTheContextFailsAndNamesIt() {
        assertThatThrownBy(board::increment)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("session-test");
        assertThat(context.invokeAsync(board::snapshot).join().counter()).as("nothing changed").isZero();
    }

    @Test
    void readingOutsideTheContextFailsToo() {
        assertThatThrownBy(board::snapshot).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void insideTheContextItWorks() {
        assertThat(context.invokeAsync(board::increment).join().counter()).isEqualTo(1);
    }
}
