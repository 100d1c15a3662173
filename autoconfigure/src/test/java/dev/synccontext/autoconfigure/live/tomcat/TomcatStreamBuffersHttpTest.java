package dev.synccontext.autoconfigure.live.tomcat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.live.LiveChannels;
import dev.synccontext.spring.live.ScopedBoard;
import dev.synccontext.spring.live.LiveSse;
import dev.synccontext.spring.scope.ContextScoped;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import dev.synccontext.testing.SseClient;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.Reader;
import java.lang.reflect.Field;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.CharBuffer;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.connector.InputBuffer;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.RequestFacade;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A real Tomcat with every buffer of {@code synccontext.live.tomcat.*} shrunk far below the messages it carries:
 * SSE messages many times the socket and response buffers arrive whole and in order, and a request body many times
 * the reader's buffer is read whole, multi-byte characters split across the buffers included.
 */
@OnRandomPort(classes = TomcatStreamBuffersHttpTest.StreamApp.class,
        properties = {"synccontext.live.tomcat.socket-buffer=512B", "synccontext.live.tomcat.response-buffer=256B",
                "synccontext.live.tomcat.request-buffer=256B", "synccontext.live.tomcat.max-trailer-size=64B"})
class TomcatStreamBuffersHttpTest {

    @Autowired
    ServletWebServerApplicationContext context;

    @Test
    void theRunningServerUsesTheSizes() {
        Connector connector = ((TomcatWebServer) context.getWebServer()).getTomcat().getConnector();
        assertThat(connector.getProtocolHandler()).isInstanceOf(ResponseBufferProtocol.class);
        assertThat(connector.getProtocolHandler().getDesiredBufferSize()).isEqualTo(256);
        assertThat(connector.getProperty("socket.appReadBufSize")).isEqualTo("512");
        assertThat(connector.getProperty("socket.appWriteBufSize")).isEqualTo("512");
        assertThat(((AbstractHttp11Protocol<?>) connector.getProtocolHandler()).getMaxTrailerSize()).isEqualTo(64);
        assertThat(((AbstractHttp11Protocol<?>) connector.getProtocolHandler()).getProcessorCache())
                .as("processors not reused, after Boot's own setting").isZero();
    }

    @Test
    void sseMessagesLargerThanEveryBufferArriveWholeAndInOrder(Browser tab) throws Exception {
        assertThat(tab.post("/feed/publish?size=1").statusCode()).isEqualTo(200); // opens the session
        List<Integer> sizes = List.of(700, 5_000, 40_000, 3, 100_000);
        try (SseClient stream = new SseClient(tab.httpClient(), tab.uri("/feed/events"), null, null)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> !stream.events.isEmpty()); // the snapshot
            for (int size : sizes) {
                assertThat(tab.post("/feed/publish?size=" + size).statusCode()).isEqualTo(200);
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> stream.events.size() == 1 + sizes.size());
            List<String> data = stream.events.stream().skip(1).map(SseClient.Event::data).toList();
            assertThat(data).as("each message whole, in order")
                    .containsExactlyElementsOf(sizes.stream().map(size -> '"' + text(size) + '"').toList());
            assertThat(stream.failure).isNull();
        }
    }

    @Test
    void aRequestBodyLargerThanTheReadersBufferIsReadWhole(Browser tab) {
        String body = text(50_000);
        HttpResponse<String> echo = tab.send(tab.request("/echo").header("Content-Type", "text/plain; charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
        assertThat(echo.statusCode()).isEqualTo(200);
        assertThat(echo.headers().firstValue("Reader-Buffer")).as("the reader's buffer (chars) the request had")
                .hasValue("128");
        assertThat(echo.body()).as("the body, whole").isEqualTo(body);
    }

    /** {@code size} characters, one in three of them two or three bytes long in UTF-8. */
    static String text(int size) {
        String pattern = "aé€bcdefgh0123456789";
        return IntStream.range(0, size).mapToObj(i -> String.valueOf(pattern.charAt(i % pattern.length())))
                .reduce(new StringBuilder(size), StringBuilder::append, StringBuilder::append).toString();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({Feed.class, FeedController.class})
    static class StreamApp {
    }

    /** One session's channel. */
    @Component
    @ContextScoped
    static class Feed extends ScopedBoard {

        Feed(LiveChannels channels) {
            super(channels, "feed");
        }

        @Override
        protected Object state() {
            return "snapshot";
        }

        void publish(int size) {
            live.publish("text", text(size));
        }
    }

    @RestController
    record FeedController(Feed feed, RendererSyncContext context, LiveSse sse) {

        @OnContext
        @PostMapping("/feed/publish")
        String publish(@RequestParam int size) {
            feed.publish(size);
            return "published";
        }

        @GetMapping(path = "/feed/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
        void events(HttpServletRequest request, HttpServletResponse response) {
            sse.subscribe(request, response, context, feed::live);
        }

        /** Echoes a text body read through the request's reader; says how large the reader's buffer was. */
        @PostMapping("/echo")
        void echo(HttpServletRequest request, HttpServletResponse response) throws Exception {
            response.setHeader("Reader-Buffer", Integer.toString(readerChars(request)));
            StringBuilder body = new StringBuilder();
            char[] chunk = new char[1000];
            try (Reader reader = request.getReader()) {
                for (int n; (n = reader.read(chunk)) >= 0; ) {
                    body.append(chunk, 0, n);
                }
            }
            response.setContentType("text/plain;charset=UTF-8");
            response.getWriter().write(body.toString());
        }

        private static int readerChars(HttpServletRequest request) throws ReflectiveOperationException {
            Request tomcat = (Request) field(RequestFacade.class, "request").get(request);
            InputBuffer input = (InputBuffer) field(Request.class, "inputBuffer").get(tomcat);
            return ((CharBuffer) field(InputBuffer.class, "cb").get(input)).capacity();
        }

        private static Field field(Class<?> type, String name) throws NoSuchFieldException {
            Field field = type.getDeclaredField(name);
            field.setAccessible(true);
            return field;
        }
    }
}
