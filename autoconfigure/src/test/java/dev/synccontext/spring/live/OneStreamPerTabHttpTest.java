package dev.synccontext.spring.live;

import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;

/**
 * {@link OneStreamPerTabContract} on Spring MVC over real Tomcat: one {@link LiveSse} connection per tab for the
 * session's own events and every room it joined ({@link AuctionApp}); the stream's request names the
 * {@code JSESSIONID} itself.
 */
@OnRandomPort(classes = AuctionApp.class, properties = {
        "synccontext.live.policy=disconnect", "synccontext.live.buffer-capacity=256",
        "synccontext.live.replay-capacity=256", "server.shutdown=immediate"})
class OneStreamPerTabHttpTest extends OneStreamPerTabContract {

    @Override
    String sessionCookie(Browser browser) {
        return browser.cookie("JSESSIONID");
    }
}
