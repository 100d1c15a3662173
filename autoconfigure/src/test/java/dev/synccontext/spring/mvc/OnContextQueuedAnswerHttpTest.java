package dev.synccontext.spring.mvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.context.request.async.DeferredResultProcessingInterceptor;
import org.springframework.web.servlet.config.annotation.AsyncSupportConfigurer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * A queued {@code @OnContext} body's answer is handed to Spring MVC after its callback, off the context: the
 * application's {@code DeferredResultProcessingInterceptor}s (which run when the result is set) see no current
 * context, and the next queued body of the session does not wait for them. Completing the deferred result
 * from inside the callback, where the body's future completes, fails both: the first interceptor would block
 * the drain that must run the second body.
 */
@OnRandomPort(classes = { OnContextApp.class, OnContextQueuedAnswerHttpTest.Probe.class })
class OnContextQueuedAnswerHttpTest {

    @Autowired
    OnContextApp.Gate gate;

    @Autowired
    Probe probe;

    @Test
    void aQueuedBodysAnswerIsSetOffTheContextAndTheNextQueuedBodyDoesNotWaitForIt(Browser judy) {
        RendererSyncContext held = gate.holdSessionOf(judy);
        CompletableFuture<HttpResponse<String>> first = increment(judy, "first");
        await().atMost(Duration.ofSeconds(30)).until(() -> held.queueDepth() == 1);
        CompletableFuture<HttpResponse<String>> second = increment(judy, "second");
        await().atMost(Duration.ofSeconds(30)).until(() -> held.queueDepth() == 2);
        gate.release.countDown();

        HttpResponse<String> firstReply = first.orTimeout(60, TimeUnit.SECONDS).join();
        HttpResponse<String> secondReply = second.orTimeout(60, TimeUnit.SECONDS).join();
        assertThat(firstReply.statusCode()).as(firstReply.body()).isEqualTo(200);
        assertThat(firstReply.body()).isEqualTo("1");
        assertThat(secondReply.body()).isEqualTo("2");
        assertThat(probe.contextWhileAnswering).as("the context current where each queued answer was set")
                .containsExactlyInAnyOrderEntriesOf(Map.of("first", "none", "second", "none"));
        assertThat(probe.secondAnsweredWhileFirstWaited)
                .as("the second queued body ran and was answered while the first one's answer was still being set")
                .isTrue();
    }

    private static CompletableFuture<HttpResponse<String>> increment(Browser browser, String probe) {
        HttpRequest request = browser.request("/on/increment").header("X-Probe", probe)
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        return browser.httpClient().sendAsync(request, HttpResponse.BodyHandlers.ofString());
    }

    /** Records where each probed deferred result is set; the first one waits there for the second. */
    @Configuration(proxyBeanMethods = false)
    static class Probe implements WebMvcConfigurer {

        final Map<String, String> contextWhileAnswering = new ConcurrentHashMap<>();
        final CountDownLatch secondAnswered = new CountDownLatch(1);
        volatile boolean secondAnsweredWhileFirstWaited;

        @Override
        public void configureAsyncSupport(AsyncSupportConfigurer configurer) {
            configurer.registerDeferredResultInterceptors(new DeferredResultProcessingInterceptor() {
                @Override
                public <T> void postProcess(NativeWebRequest request, DeferredResult<T> deferredResult,
                        Object concurrentResult) throws InterruptedException {
                    String name = request.getHeader("X-Probe");
                    if (name == null) {
                        return;
                    }
                    contextWhileAnswering.put(name, RendererSyncContext.current().map(RendererSyncContext::name)
                            .orElse("none"));
                    if (name.equals("second")) {
                        secondAnswered.countDown();
                    } else {
                        secondAnsweredWhileFirstWaited = secondAnswered.await(10, TimeUnit.SECONDS);
                    }
                }
            });
        }
    }
}
