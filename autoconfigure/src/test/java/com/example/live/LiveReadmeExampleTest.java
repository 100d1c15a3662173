package com.example.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.Browser;
import dev.synccontext.testing.DocExample;
import dev.synccontext.testing.OnRandomPort;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The "Live channels" example of autoconfigure/docs/live-channels.md cannot rot: the files it shows are this package's
 * sources, shown verbatim, and the application they make works as the README says: a tab gets a snapshot,
 * then every change in order, and an {@code ended} event when its session ends.
 */
@OnRandomPort(classes = LiveBoardApplication.class)
@Import(LiveReadmeExampleTest.SessionEnd.class)
class LiveReadmeExampleTest {

    @Test
    void theReadmeShowsThisExampleVerbatim() throws IOException {
        DocExample.assertShowsVerbatim("autoconfigure/docs/live-channels.md",
                "autoconfigure/src/test/java/com/example/live/", "Board.java", "BoardController.java");
    }

    @Test
    void aTabGetsTheSnapshotThenEveryChangeInOrderThenEndedWhenItsSessionEnds(Browser tab) throws Exception {
        BoardTab stream = BoardTab.openAndIncrement(tab, 100);

        assertThat(tab.delete("/session").statusCode()).isEqualTo(204);
        assertThat(stream.end.await(10, TimeUnit.SECONDS)).as("the stream ends").isTrue();
        assertThat(stream.events.get(stream.events.size() - 1)).isEqualTo("ended \"The session ended.\"");
    }

    /** Lets the test end a session (not part of the README's example). */
    @RestController
    static class SessionEnd {
        @DeleteMapping("/session")
        org.springframework.http.ResponseEntity<Void> end(HttpServletRequest request) {
            HttpSession session = request.getSession(false);
            if (session != null) {
                session.invalidate();
            }
            return org.springframework.http.ResponseEntity.noContent().build();
        }
    }
}
