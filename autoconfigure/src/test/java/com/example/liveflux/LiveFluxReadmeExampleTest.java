package com.example.liveflux;

import com.example.live.Board;
import com.example.live.BoardTab;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * The WebFlux example of autoconfigure/docs/live-channels.md's "On WebFlux" ({@link BoardStream}, shown verbatim; the
 * README's block is checked by {@code ReadmeJavaBlocksTest}) works as it says on Reactor Netty: a tab gets a
 * snapshot, then every change in order.
 */
@OnRandomPort(classes = LiveFluxReadmeExampleTest.App.class,
        properties = {"spring.main.web-application-type=reactive", "server.shutdown=immediate"})
class LiveFluxReadmeExampleTest {

    @Test
    void aTabGetsTheSnapshotThenEveryChangeInOrder(Browser tab) throws Exception {
        BoardTab.openAndIncrement(tab, 50).close(); // the snapshot, then every change in order, asserted
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({Board.class, BoardStream.class})
    static class App {
    }
}
