package dev.synccontext.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The load client itself, against a stub server that answers what a node answers while it hands a session over. */
@Tag("cluster")
class DurableLoadTest {

    @Test
    void openingASessionRetriesA503LikeEveryOtherRequestPath() throws IOException {
        AtomicInteger requests = new AtomicInteger();
        HttpServer node = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        node.createContext("/durable/count", exchange -> {
            // Two 503s, as a node answers while the session is handed over, then the session's first read.
            boolean handingOver = requests.incrementAndGet() <= 2;
            byte[] body = (handingOver ? "handing over" : "0").getBytes(StandardCharsets.UTF_8);
            if (handingOver) {
                exchange.getResponseHeaders().add("Retry-After", "0");
            } else {
                exchange.getResponseHeaders().add("Set-Cookie", "SESSION=c2Vzc2lvbg; Path=/; HttpOnly");
            }
            exchange.sendResponseHeaders(handingOver ? 503 : 200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        node.start();
        try {
            DurableLoad load = new DurableLoad(() -> node.getAddress().getPort());
            List<DurableLoad.Session> opened = load.open(1);
            assertThat(opened).as("the session opened past the 503s").hasSize(1);
            assertThat(opened.get(0).sessionId()).isEqualTo("session");
            assertThat(load.retried503.sum()).as("503s retried while opening").isEqualTo(2);
            assertThat(requests.get()).as("requests the stub answered").isEqualTo(3);
        } finally {
            node.stop(0);
        }
    }
}
