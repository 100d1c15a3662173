package dev.synccontext.bench.footprint;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import javax.management.ObjectName;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Heap added per idle HTTP session, with the starter and without it: starts {@link FootprintApplication} on
 * real Tomcat in this JVM, once with {@code synccontext.enabled=false} and once with the starter on, opens
 * {@code sessions} sessions over real HTTP in each (one request each, no cookie kept, so each request starts
 * one), and takes the live heap before and after from the JVM's class histogram (what
 * {@code jcmd PID GC.class_histogram} prints; it runs a full GC first). Prints bytes per session for both,
 * their difference (what the starter adds: session handle, context, registry entry) and the classes that
 * grew most with the starter on.
 *
 * <p>{@code java -cp bench/http/target/synccontext-bench-http.jar -Dloader.main=dev.synccontext.bench.footprint.SessionFootprintReport org.springframework.boot.loader.launch.PropertiesLauncher [sessions]}
 * (docs/2026-12-02-bench-figures.md, "Heap per idle HTTP session").
 */
public final class SessionFootprintReport {

    /** One mode's measurement. */
    public record Result(String mode, int sessions, long heapBefore, long heapAfter, Map<String, Long> growth) {
        public double bytesPerSession() {
            return (heapAfter - heapBefore) / (double) sessions;
        }
    }

    private SessionFootprintReport() {
    }

    public static void main(String[] args) throws Exception {
        int sessions = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        Result without = measure("without the starter (synccontext.enabled=false)", sessions, false);
        Result with = measure("with the starter", sessions, true);
        System.out.printf("%nheap per idle HTTP session, %,d sessions, Java %s%n", sessions,
                System.getProperty("java.version"));
        System.out.println("| app | live heap added | per session |");
        System.out.println("|---|---:|---:|");
        for (Result result : List.of(without, with)) {
            System.out.printf("| %s | %,d B | %,.0f B |%n", result.mode(), result.heapAfter() - result.heapBefore(),
                    result.bytesPerSession());
        }
        System.out.printf("| the starter's part | | %,.0f B |%n", with.bytesPerSession() - without.bytesPerSession());
        System.out.println("\nclasses that grew most per session with the starter, beyond the app without it:");
        System.out.println(difference(with, without, 12));
    }

    /** Starts the app, opens {@code sessions} sessions, measures, stops the app. */
    public static Result measure(String mode, int sessions, boolean starter) throws Exception {
        SpringApplication application = new SpringApplication(FootprintApplication.class);
        ConfigurableApplicationContext app = application.run("--server.port=0", "--server.address=127.0.0.1",
                "--server.servlet.session.timeout=2h", "--synccontext.enabled=" + starter,
                "--spring.main.banner-mode=off", "--logging.level.root=warn");
        try {
            int port = ((WebServerApplicationContext) app).getWebServer().getPort();
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            open(http, port, Math.min(1_000, sessions)); // warm-up: classes loaded, pools grown, caches filled
            Map<String, Long> before = histogram();
            open(http, port, sessions);
            Map<String, Long> after = histogram();
            Map<String, Long> growth = new HashMap<>();
            after.forEach((type, bytes) -> growth.put(type, bytes - before.getOrDefault(type, 0L)));
            return new Result(mode, sessions, total(before), total(after), growth);
        } finally {
            app.close();
        }
    }

    private static void open(HttpClient http, int port, int sessions) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + port + "/session");
        AtomicInteger next = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int c = 0; c < 4; c++) {
                all.add(clients.submit(() -> {
                    while (next.getAndIncrement() < sessions) {
                        HttpResponse<String> answer = post(http, uri);
                        if (answer.statusCode() != 200) {
                            throw new IllegalStateException("POST /session answered " + answer.statusCode());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> client : all) {
                client.get();
            }
        } finally {
            clients.shutdownNow();
        }
    }

    /**
     * One {@code POST /session}, sent once more if the JDK's HTTP/1.1 client closed the pooled connection under it.
     * Java 17's client can hand a pooled connection to the next request while the pool's idle watcher still reads
     * it: the answer then reaches the watcher, which takes it for unexpected bytes and closes the connection, and
     * the request fails with "header parser received no bytes" (seen once in a loaded CI lane). The server answered
     * that first try, so it opened a session the count does not know of: about 1 KB against the thousands measured.
     */
    private static HttpResponse<String> post(HttpClient http, URI uri) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.noBody()).build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException closedUnderIt) {
            System.out.println("POST /session sent again after the client closed its connection: " + closedUnderIt);
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        }
    }

    /** Live bytes per class, after the full GC the histogram runs. */
    static Map<String, Long> histogram() throws Exception {
        String text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[] {new String[0]}, new String[] {String[].class.getName()});
        Map<String, Long> bytes = new HashMap<>();
        for (String line : text.split("\n")) {
            String[] cols = line.trim().split("\\s+");
            if (cols.length >= 4 && cols[0].endsWith(":")) {
                bytes.merge(cols[3], Long.parseLong(cols[2]), Long::sum);
            }
        }
        return bytes;
    }

    private static long total(Map<String, Long> histogram) {
        return histogram.values().stream().mapToLong(Long::longValue).sum();
    }

    private static String difference(Result with, Result without, int top) {
        Map<String, Long> extra = new HashMap<>();
        with.growth().forEach((type, bytes) -> extra.put(type, bytes - without.growth().getOrDefault(type, 0L)));
        return extra.entrySet().stream()
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .limit(top)
                .map(e -> String.format("  %,8.1f B  %s", e.getValue() / (double) with.sessions(), e.getKey()))
                .collect(Collectors.joining("\n"));
    }
}
