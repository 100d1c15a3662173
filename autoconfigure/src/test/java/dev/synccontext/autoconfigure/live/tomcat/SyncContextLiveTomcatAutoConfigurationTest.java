package dev.synccontext.autoconfigure.live.tomcat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.autoconfigure.AllParts;
import java.util.List;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Connector;
import org.apache.coyote.AbstractProtocol;
import org.apache.coyote.ProtocolHandler;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.tomcat.TomcatProtocolHandlerCustomizer;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;

/** When {@code synccontext.live.tomcat.*} applies, and what each size changes in Tomcat. */
class SyncContextLiveTomcatAutoConfigurationTest {

    private static final AutoConfigurations TOMCAT = AutoConfigurations.of(SyncContextLiveTomcatAutoConfiguration.class);

    private final WebApplicationContextRunner servlet = AllParts.servlet().withConfiguration(TOMCAT);

    @Test
    void absentByDefault() {
        servlet.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(TomcatStreamBuffers.class));
    }

    @ParameterizedTest
    @ValueSource(strings = {"socket-buffer=2KB", "response-buffer=1KB", "request-buffer=512B", "max-trailer-size=512B"})
    void presentWhenAnySizeIsSet(String setting) {
        servlet.withPropertyValues("synccontext.live.tomcat." + setting)
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(TomcatStreamBuffers.class));
    }

    @Test
    void absentInAReactiveApplicationAndWhenTheLibraryIsOff() {
        new ReactiveWebApplicationContextRunner().withConfiguration(AllParts.ALL).withConfiguration(TOMCAT)
                .withPropertyValues("synccontext.live.tomcat.socket-buffer=2KB")
                .run(context -> assertThat(context).doesNotHaveBean(TomcatStreamBuffers.class));
        servlet.withPropertyValues("synccontext.live.tomcat.socket-buffer=2KB", "synccontext.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(TomcatStreamBuffers.class));
    }

    @Test
    void everySizeSetReachesTomcat() {
        servlet.withPropertyValues("synccontext.live.tomcat.socket-buffer=2KB",
                "synccontext.live.tomcat.response-buffer=1KB", "synccontext.live.tomcat.request-buffer=512B",
                "synccontext.live.tomcat.max-trailer-size=256B").run(context -> {
                    TomcatServletWebServerFactory factory = new TomcatServletWebServerFactory();
                    context.getBean(TomcatStreamBuffers.class).customize(factory);
                    Connector connector = connector(factory);

                    assertThat(connector.getProtocolHandler()).isInstanceOf(ResponseBufferProtocol.class);
                    assertThat(((ResponseBufferProtocol) connector.getProtocolHandler()).getDesiredBufferSize())
                            .isEqualTo(1024);
                    assertThat(connector.getProperty("socket.appReadBufSize")).isEqualTo("2048");
                    assertThat(connector.getProperty("socket.appWriteBufSize")).isEqualTo("2048");
                    assertThat(((AbstractHttp11Protocol<?>) connector.getProtocolHandler()).getMaxTrailerSize())
                            .isEqualTo(256);
                    List<Valve> valves = List.copyOf(factory.getEngineValves());
                    assertThat(valves).singleElement().isInstanceOf(RequestBufferValve.class);
                    assertThat(((RequestBufferValve) valves.get(0)).chars()).as("512 B of chars").isEqualTo(256);
                });
    }

    @Test
    void anUnsetSizeLeavesTomcatsOwn() {
        servlet.withPropertyValues("synccontext.live.tomcat.max-trailer-size=1KB").run(context -> {
            TomcatServletWebServerFactory factory = new TomcatServletWebServerFactory();
            context.getBean(TomcatStreamBuffers.class).customize(factory);
            Connector connector = connector(factory);

            assertThat(factory.getProtocol()).isEqualTo(TomcatServletWebServerFactory.DEFAULT_PROTOCOL);
            assertThat(connector.getProperty("socket.appReadBufSize")).isEqualTo("8192");
            assertThat(factory.getEngineValves()).isEmpty();
            assertThat(((AbstractHttp11Protocol<?>) connector.getProtocolHandler()).getMaxTrailerSize()).isEqualTo(1024);
        });
    }

    @Test
    void aResponseBufferWithAnotherProtocolIsRefusedNamingTheWayOut() {
        servlet.withPropertyValues("synccontext.live.tomcat.response-buffer=1KB").run(context -> {
            TomcatServletWebServerFactory factory = new TomcatServletWebServerFactory();
            factory.setProtocol("org.apache.coyote.http11.Http11Nio2Protocol");
            assertThatThrownBy(() -> context.getBean(TomcatStreamBuffers.class).customize(factory))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("synccontext.live.tomcat.response-buffer")
                    .hasMessageContaining("Http11Nio2Protocol")
                    .hasMessageContaining("unset synccontext.live.tomcat.response-buffer");
        });
    }

    @Test
    void aSizeBelowItsFloorFailsStartupNamingTheProperty() {
        servlet.withPropertyValues("synccontext.live.tomcat.socket-buffer=16B").run(context -> assertThat(context)
                .hasFailed().getFailure().rootCause()
                .hasMessageContaining("synccontext.live.tomcat.socket-buffer must be at least 512B, not 16B"));
    }

    @Test
    void processorsAreNotReusedUnlessTheApplicationSetsTheCache() {
        servlet.run(context -> {
            TomcatServletWebServerFactory factory = new TomcatServletWebServerFactory();
            factory.addConnectorCustomizers(connector -> // as Boot's customizer does, before this one
                    ((AbstractProtocol<?>) connector.getProtocolHandler()).setProcessorCache(200));
            context.getBean(TomcatProcessorsNotReused.class).customize(factory);
            assertThat(((AbstractProtocol<?>) connector(factory).getProtocolHandler()).getProcessorCache())
                    .as("after Boot's 200").isZero();
        });
        servlet.withPropertyValues("server.tomcat.processor-cache=50")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(TomcatProcessorsNotReused.class));
        new ReactiveWebApplicationContextRunner().withConfiguration(AllParts.ALL).withConfiguration(TOMCAT)
                .run(context -> assertThat(context).doesNotHaveBean(TomcatProcessorsNotReused.class));
    }

    /** The connector Boot would make: the factory's protocol, its connector and protocol customizers applied. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Connector connector(TomcatServletWebServerFactory factory) {
        Connector connector = new Connector(factory.getProtocol());
        factory.getConnectorCustomizers().forEach(customizer -> customizer.customize(connector));
        ProtocolHandler handler = connector.getProtocolHandler();
        for (TomcatProtocolHandlerCustomizer customizer : factory.getProtocolHandlerCustomizers()) {
            customizer.customize(handler);
        }
        return connector;
    }
}
