package dev.synccontext.spring.handler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.Browser;

/**
 * The {@code @OnContext(false)} test applications (MVC, WebFlux, STOMP): what their handlers answer, and the check
 * that the two HTTP stacks make of an {@code @OnContext} controller with one method opted out.
 */
public final class OptOutAnswers {

    private OptOutAnswers() {
    }

    /** {@code "on <context>"} inside a context's callback, {@code "off"} outside any. */
    public static String where() {
        return RendererSyncContext.current().map(context -> "on " + context.name()).orElse("off");
    }

    /**
     * {@code GET <prefix>/on} (a method of the annotated class) runs on the session's context, {@code GET
     * <prefix>/off} (the method marked {@code @OnContext(false)}) on none, and the next call of the former runs on
     * the same context again.
     */
    public static void assertOnlyTheOptedOutMethodRunsOff(Browser browser, String prefix) {
        String on = browser.get(prefix + "/on").body();
        assertThat(on).as("the class's @OnContext").startsWith("on session-");
        assertThat(browser.get(prefix + "/off").body()).as("@OnContext(false) on the method").isEqualTo("off");
        assertThat(browser.get(prefix + "/on").body()).isEqualTo(on);
    }
}
