package dev.synccontext.spring.websocket;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.handler.OptOutAnswers;
import dev.synccontext.testing.OnRandomPort;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.handler.annotation.SendTo;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.stereotype.Controller;

/**
 * {@code @OnContext(false)} on one method of an {@code @OnContext} STOMP controller, over a real socket: that
 * method runs as if the class carried no annotation (on Spring's inbound thread, no context around its body),
 * while the class's other methods still run on the STOMP session's context.
 */
@OnRandomPort(classes = OnContextOptOutStompTest.App.class)
@ExtendWith(LocalStomp.Resolver.class)
class OnContextOptOutStompTest {

    @Test
    void aMethodMarkedOnContextFalseRunsOffTheContextItsSiblingsRunOn(LocalStomp stomp) throws Exception {
        StompSession session = stomp.connect("/stomp");
        try {
            BlockingQueue<String> replies = StompClients.subscribe(session, "/topic/opt");
            // The subscription takes effect on Spring's inbound pool: send until the first reply arrives.
            String on = null;
            for (int i = 0; i < 600 && on == null; i++) {
                session.send("/app/opt/on", "");
                on = replies.poll(100, java.util.concurrent.TimeUnit.MILLISECONDS);
            }
            assertThat(on).as("the class's @OnContext").startsWith("on websocket-");
            replies.clear();
            session.send("/app/opt/off", "");
            assertThat(takeNot(replies, on)).as("@OnContext(false) on the method").isEqualTo("off");
            session.send("/app/opt/on", "");
            assertThat(replies.poll(30, SECONDS)).isEqualTo(on);
        } finally {
            session.disconnect();
        }
    }

    /** The next reply that is not a late answer to a probe of the subscription. */
    private static String takeNot(BlockingQueue<String> replies, String probe) throws InterruptedException {
        String reply;
        do {
            reply = replies.poll(30, SECONDS);
        } while (probe.equals(reply));
        return reply;
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({StompBroker.class, OptOutController.class})
    static class App {
    }

    @Controller
    @OnContext
    static class OptOutController {

        @MessageMapping("/opt/on")
        @SendTo("/topic/opt")
        String on() {
            return OptOutAnswers.where();
        }

        @MessageMapping("/opt/off")
        @SendTo("/topic/opt")
        @OnContext(false)
        String off() {
            return OptOutAnswers.where();
        }
    }
}
