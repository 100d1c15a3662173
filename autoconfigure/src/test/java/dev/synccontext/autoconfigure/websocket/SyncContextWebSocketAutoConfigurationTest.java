package dev.synccontext.autoconfigure.websocket;

import dev.synccontext.spring.websocket.StompBroker;

import dev.synccontext.spring.websocket.SyncContextWebSocketHandler;
import dev.synccontext.spring.websocket.WebSocketSessionContext;
import dev.synccontext.spring.websocket.WebSocketSessionContexts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;
import dev.synccontext.autoconfigure.AllParts;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.autoconfigure.metrics.SyncContextMetricsAutoConfiguration;
import dev.synccontext.autoconfigure.propagation.SyncContextTaskDecoratorAutoConfiguration;
import dev.synccontext.autoconfigure.mvc.SyncContextMvcAutoConfiguration;
import dev.synccontext.autoconfigure.propagation.SyncContextPropagationAutoConfiguration;
import dev.synccontext.autoconfigure.session.SyncContextSessionAutoConfiguration;
import dev.synccontext.autoconfigure.webflux.SyncContextWebFluxAutoConfiguration;

/** Conditions of the WebSocket auto-configuration, and how the HTTP and WebSocket contexts sit side by side. */
@ExtendWith(OutputCaptureExtension.class)
class SyncContextWebSocketAutoConfigurationTest {

    private static final AutoConfigurations ALL = AutoConfigurations.of(SyncContextAutoConfiguration.class,
            SyncContextSessionAutoConfiguration.class, SyncContextWebFluxAutoConfiguration.class,
            SyncContextMvcAutoConfiguration.class, SyncContextPropagationAutoConfiguration.class,
            SyncContextWebSocketAutoConfiguration.class, SyncContextTaskDecoratorAutoConfiguration.class,
            SyncContextMetricsAutoConfiguration.class);

    private final WebApplicationContextRunner servlet = new WebApplicationContextRunner().withConfiguration(ALL);

    // ---------------------------------------------------------------- side by side

    @Test
    void theHttpContextStaysTheDefaultAndTheWebSocketOneNeedsItsQualifier() {
        servlet.withUserConfiguration(NeedsBoth.class).run(context -> {
            assertThat(context).hasNotFailed();
            NeedsBoth both = context.getBean(NeedsBoth.class);
            assertThat(both.http.toString()).as("injected by type").endsWith("current session");
            assertThat(both.webSocket.toString()).as("@WebSocketSessionContext").endsWith("current websocket");
            assertThat(context.getBean(WebSocketSessionContext.BEAN)).isSameAs(both.webSocket);
        });
    }

    @Test
    void withRequestScopeTheDefaultIsTheRequestsContextAndTheWebSocketOneIsStillThere() {
        servlet.withUserConfiguration(NeedsBoth.class).withPropertyValues("synccontext.scope=request").run(context -> {
            NeedsBoth both = context.getBean(NeedsBoth.class);
            assertThat(both.http.toString()).endsWith("current request");
            assertThat(both.webSocket.toString()).endsWith("current websocket");
        });
    }

    @Test
    void theWebSocketProxyOutsideAnySessionSaysWhereItWorks() {
        servlet.run(context -> {
            RendererSyncContext proxy = context.getBean(WebSocketSessionContext.BEAN, RendererSyncContext.class);
            assertThat(org.assertj.core.api.Assertions.catchThrowable(proxy::name))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("No WebSocket session on this thread")
                    .hasMessageContaining("SyncContextWebSocketHandler");
        });
    }

    @Test
    void webSocketScopeMetersExistFromStartupAtZero() {
        servlet.run(context -> {
            MeterRegistry meters = AllParts.boundMeters(context);
            assertThat(meters.get("synccontext.contexts").tag("scope", "websocket").gauge().value()).isZero();
            assertThat(meters.get("synccontext.contexts").tag("scope", "session").gauge().value()).isZero();
        });
    }

    @Test
    void noWebSocketContextsWithoutSpringWebSocket() {
        servlet.withClassLoader(new FilteredClassLoader(WebSocketHandler.class)).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(WebSocketSessionContexts.class);
            assertThat(context.containsBean(WebSocketSessionContext.BEAN)).isFalse();
            assertThat(context.containsBean("rendererSyncContext")).isTrue();
        });
    }

    @Test
    void noWebSocketContextsInAReactiveApplication() {
        new ReactiveWebApplicationContextRunner().withConfiguration(ALL)
                .run(context -> assertThat(context).doesNotHaveBean(WebSocketSessionContexts.class));
    }

    @Test
    void stompHooksOnlyWithStompMessaging() {
        servlet.run(context -> {
            assertThat(context).hasSingleBean(WebSocketSessionContexts.class);
            assertThat(context).doesNotHaveBean(WebSocketMessageBrokerConfigurer.class);
            assertThat(context.containsBean("syncContextStompSessionReleaser")).isFalse();
        });
        servlet.withUserConfiguration(StompBroker.class).run(context -> {
            assertThat(context.containsBean("syncContextStompArgumentResolver")).isTrue();
            assertThat(context.containsBean("syncContextStompSessionOpener")).isTrue();
            assertThat(context.containsBean("syncContextStompSessionReleaser")).isTrue();
        });
    }

    @Test
    void scopeWebsocketStillWorksAndSaysItIsDeprecated(CapturedOutput output) {
        servlet.withUserConfiguration(StompBroker.class)
                .withPropertyValues("synccontext.scope=websocket").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean("rendererSyncContext").toString()).endsWith("current websocket");
                    assertThat(output).contains("synccontext.scope=websocket is deprecated")
                            .contains("@WebSocketSessionContext");
                });
    }

    @Test
    void scopeWebsocketWithStompMakesTheBeanWebSocketScoped() {
        servlet.withUserConfiguration(StompBroker.class).withPropertyValues("synccontext.scope=websocket").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBeanFactory().getBeanDefinition("scopedTarget.rendererSyncContext").getScope())
                    .isEqualTo("websocket");
        });
    }

    // ---------------------------------------------------------------- configurations

    @Configuration(proxyBeanMethods = false)
    static class NeedsBoth {
        final RendererSyncContext http;
        final RendererSyncContext webSocket;

        NeedsBoth(RendererSyncContext http, @WebSocketSessionContext RendererSyncContext webSocket) {
            this.http = http;
            this.webSocket = webSocket;
        }
    }
}
