package dev.synccontext.spring.live;

import dev.synccontext.testing.OnRandomPort;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * {@link LiveBoardApp} on a random port with the settings of the stalled-tab tests over Tomcat: drop-oldest
 * buffers of {@link #CAPACITY} messages, a replay of 100, callbacks counted blocked past 500 ms, an immediate
 * shutdown. The settings stand here once, so every test that carries this shares one application.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@OnRandomPort(classes = LiveBoardApp.class, properties = {
        "synccontext.live.policy=drop-oldest", "synccontext.live.buffer-capacity=" + OnStalledTabBoard.CAPACITY,
        "synccontext.live.replay-capacity=100", "synccontext.blocked-threshold=500ms", "server.shutdown=immediate"})
@interface OnStalledTabBoard {

    /** Each subscriber's buffer in messages ({@code synccontext.live.buffer-capacity}), what a stalled tab holds. */
    int CAPACITY = 32;
}
