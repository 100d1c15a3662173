package dev.synccontext.spring.live;

import dev.synccontext.testing.Browser;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * {@link OneStreamPerTabContract} on Spring MVC over real Tomcat: one {@link LiveSse} connection per tab for the
 * session's own events and every room it joined ({@link AuctionApp}); the stream's request names the
 * {@code JSESSIONID} itself.
 */
@SpringBootTest(classes = AuctionApp.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "synccontext.live.policy=disconnect", "synccontext.live.buffer-capacity=256",
        "synccontext.live.replay-capacity=256", "server.shutdown=immediate"})
class OneStreamPerTabHttpTest extends OneStreamPerTabContract {

    @Override
    String sessionCookie(Browser browser) {
        return browser.cookie("JSESSIONID");
    }
}
