package dev.synccontext.bench.capacity.load;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The capacity harness: starts the capacity application in a JVM of its own (default settings but
 * {@code capacity.properties}), then steps the number of live sessions up, and for each step reports
 * click-to-update latency, errors, heap per session, CPU of server and client, threads and file descriptors
 * (bench/README.md, "Capacity per node"). Capacity is the largest step with every session live, p99 under
 * 200 ms, no error and no overrun.
 *
 * <p>{@code java -cp <bench/http's class path> dev.synccontext.bench.capacity.load.CapacityRun [key=value ...]}
 * (the server gets the same class path), keys: {@code steps}
 * (default {@code 1000,2000,5000,10000,15000}), {@code warmup} (10s), {@code measure} (30s), {@code period}
 * (the click period, 5s), {@code lines} (click connections, 1024), {@code server-jvm} (extra JVM flags,
 * space-separated), {@code server-args} (extra application arguments, space-separated), {@code transport}
 * ({@code sse}, the default: an event stream per tab, clicks on a pool of connections; or {@code websocket}: a
 * WebSocket per tab, its clicks on the same socket), {@code selectors} (the load client's selector loops, 1;
 * {@link ShardedLoadClient}: on 2 cores a second loop did not lower p99 at 10,000 sessions and raised the
 * server's share, docs/2026-12-03-capacity-client-threads.md), {@code cpus} ({@code S/C}: the server on CPUs
 * {@code S}, the client on {@code C}, as {@code taskset -c} lists, e.g. {@code 0/1}; unset, both share every CPU),
 * {@code out} (bench/http/target/capacity). {@code bench/capacity.sh} runs it.
 */
public final class CapacityRun {

    /** One client for the run's reads of the server's share (each client holds a selector thread of its own). */
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private CapacityRun() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>(Map.of(
                "steps", "1000,2000,5000,10000,15000", "warmup", "10s", "measure", "30s", "period", "5s",
                "lines", "1024", "server-jvm", "", "server-args", "", "out", "bench/http/target/capacity",
                "transport", "sse", "selectors", "1"));
        options.put("cpus", "");
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq < 0 || !options.containsKey(arg.substring(0, eq))) {
                throw new IllegalArgumentException("Unknown argument " + arg + "; keys: " + options.keySet());
            }
            options.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        int[] steps = Arrays.stream(options.get("steps").split(",")).mapToInt(Integer::parseInt).toArray();
        Duration warmup = seconds(options.get("warmup"));
        Duration measure = seconds(options.get("measure"));
        Duration period = seconds(options.get("period"));
        Path out = Path.of(options.get("out"));
        String transport = options.get("transport");
        if (!transport.equals("sse") && !transport.equals("websocket")) {
            throw new IllegalArgumentException("transport: sse or websocket, was " + transport);
        }
        Files.createDirectories(out);

        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        List<String> command = new ArrayList<>();
        String[] cpus = cpus(options.get("cpus"));
        if (cpus != null) {
            // taskset execs the JVM, so the server's pid is the one the run measures; its JVM sizes itself to those CPUs.
            command.addAll(List.of("taskset", "-c", cpus[0]));
            pin(ProcessHandle.current().pid(), cpus[1]);
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        split(options.get("server-jvm"), command);
        // The server runs on the client's own class path: the module's classes and its dependencies.
        command.addAll(List.of("-cp", System.getProperty("java.class.path"),
                "dev.synccontext.bench.capacity.CapacityApplication",
                "--spring.config.name=capacity", "--server.port=" + port));
        split(options.get("server-args"), command);
        Path serverLog = out.resolve("server.log");
        System.out.println("server: " + String.join(" ", command).replace(System.getProperty("java.class.path"),
                "<this class path>") + " (log: " + serverLog + ")");
        System.out.println("client: " + options + "; open-file limit " + openFileLimit());
        Process server = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(serverLog.toFile()).start();
        Thread stopServer = new Thread(server::destroy, "capacity-server-stop"); // an interrupted run leaves no server
        Runtime.getRuntime().addShutdownHook(stopServer);
        List<StepResult> results = new ArrayList<>();
        try {
            awaitStarted(server, serverLog);
            long pid = server.pid();
            long baseHeap = ProcStats.liveHeapBytes(pid, out.resolve("histogram-0.txt"));
            System.out.printf(Locale.ROOT, "server pid %d: live heap before any session %,d B, load %.1f%n", pid, baseHeap,
                    ProcStats.loadAverage());
            long self = ProcessHandle.current().pid();
            var settings = new LoadClient.Settings(new InetSocketAddress("127.0.0.1", port), period,
                    Integer.parseInt(options.get("lines")), 64, false, transport.equals("websocket"));
            try (ShardedLoadClient client = new ShardedLoadClient(settings, Integer.parseInt(options.get("selectors")))) {
                for (int sessions : steps) {
                    boolean reached = ramp(client, sessions);
                    Thread.sleep(warmup.toMillis()); // every tab clicks and ticks before the window opens
                    client.nextWindow();
                    serverTimes(port); // opens the server's window with the client's
                    double server0 = ProcStats.cpuSeconds(pid);
                    double client0 = ProcStats.cpuSeconds(self);
                    long t0 = System.nanoTime();
                    Thread.sleep(measure.toMillis());
                    Window window = client.nextWindow();
                    String[] serverShare = serverTimes(port).trim().split(" ");
                    double wall = (System.nanoTime() - t0) / 1e9;
                    double serverCpu = (ProcStats.cpuSeconds(pid) - server0) / wall;
                    double clientCpu = (ProcStats.cpuSeconds(self) - client0) / wall;
                    double load = ProcStats.loadAverage();
                    int threads = ProcStats.threads(pid);
                    int fds = ProcStats.fileDescriptors(pid);
                    long rss = ProcStats.rssBytes(pid);
                    int live = client.liveTabs();
                    // The class histogram behind the heap figure, to see whose it is.
                    long heap = ProcStats.liveHeapBytes(pid, out.resolve("histogram-" + sessions + ".txt"));
                    StepResult step = new StepResult(sessions, live, window, serverCpu, clientCpu,
                            (heap - baseHeap) / Math.max(1, live), heap, rss, threads, fds, load);
                    results.add(step);
                    System.out.print(CapacityReport.table(List.of(step)).lines().skip(2).findFirst().orElse("") + "\n");
                    // A tick a second and a click every period per tab: what shows that the ticker reached every tab.
                    System.out.printf(Locale.ROOT, "  events per live tab per second: %.2f (ticks, clicks' updates)%n",
                            window.events() / (Math.max(1, live) * wall));
                    // The server's share: a click's request reaching the application to its update encoded for the write.
                    // Over WebSocket a click is no request of its own: not measured (0 clicks).
                    System.out.printf(Locale.ROOT, "  server's share (click request in -> update encoded), p50 / p99 / max:"
                            + " %s / %s / %s ms over %s clicks;%n  clicks that waited on the client for a free click line: %,d%n", serverShare[1], serverShare[2],
                            serverShare[3], serverShare[0], window.lineWaits());
                    // The client's own share: how late it handed clicks to their sockets.
                    System.out.printf(Locale.ROOT, "  client's send lag (click due -> request written), p50 / p99 / max:"
                            + " %.1f / %.1f / %.1f ms%n", window.sendLagMillis(0.5), window.sendLagMillis(0.99),
                            window.sendLagMillis(1.0));
                    write(out, results, transport);
                    if (!reached || !step.withinCapacity() && results.stream().filter(r -> !r.withinCapacity()).count() > 1) {
                        System.out.println("stopping: two steps over capacity, or the sessions could not all be opened");
                        break;
                    }
                }
            }
        } finally {
            server.destroy();
            if (!server.waitFor(60, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
            System.out.println("server exited: " + server.exitValue() + ", alive: " + server.isAlive());
        }
        System.out.println();
        System.out.print(CapacityReport.table(results));
        int capacity = results.stream().filter(StepResult::withinCapacity).mapToInt(StepResult::sessions).max().orElse(0);
        System.out.printf(Locale.ROOT, "capacity: %,d live sessions (p99 < 200 ms, no error); written to %s%n", capacity, out);
    }

    /** {@code S/C} as the server's and the client's CPU lists; null when unset. */
    private static String[] cpus(String option) {
        if (option.isEmpty()) {
            return null;
        }
        String[] lists = option.split("/");
        if (lists.length != 2 || lists[0].isBlank() || lists[1].isBlank()) {
            throw new IllegalArgumentException("cpus: the server's and the client's CPU lists as S/C (e.g. 0/1), was " + option);
        }
        return lists;
    }

    /** Pins every thread of the process to {@code cpuList} (taskset; fails the run when it cannot). */
    private static void pin(long pid, String cpuList) throws IOException, InterruptedException {
        Process taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", cpuList, Long.toString(pid))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (taskset.waitFor() != 0) {
            throw new IllegalStateException("taskset could not pin the client to CPUs " + cpuList);
        }
    }

    private static String serverTimes(int port) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/pad/server-times")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    private static boolean ramp(ShardedLoadClient client, int sessions) throws InterruptedException {
        client.sessions(sessions);
        int last = -1;
        long stalledSince = System.nanoTime();
        while (client.liveTabs() < sessions) {
            int now = client.liveTabs();
            if (now != last) {
                last = now;
                stalledSince = System.nanoTime();
            } else if (System.nanoTime() - stalledSince > TimeUnit.SECONDS.toNanos(30)) {
                System.out.printf(Locale.ROOT, "ramp to %,d stalled at %,d live sessions for 30 s%n", sessions, now);
                return false;
            }
            Thread.sleep(100); // polling the client's count
        }
        return true;
    }

    private static void write(Path out, List<StepResult> results, String transport) throws IOException {
        Files.writeString(out.resolve("capacity.md"), CapacityReport.table(results));
        Files.writeString(out.resolve("capacity.svg"), CapacityReport.svg(results,
                "Click → update latency against live sessions (one " + (transport.equals("sse") ? "SSE" : "WebSocket")
                        + " tab each, a click every 5 s)"));
    }

    private static void awaitStarted(Process server, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new IllegalStateException("The server exited (" + server.exitValue() + "); see " + log);
            }
            if (Files.exists(log) && Files.readString(log).contains("Started CapacityApplication")) {
                return;
            }
            Thread.sleep(200); // polling the server's log
        }
        throw new IllegalStateException("The server did not start within 5 minutes; see " + log);
    }

    private static String openFileLimit() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/limits")).stream().filter(l -> l.startsWith("Max open files"))
                .map(l -> l.replaceAll("\\s+", " ")).findFirst().orElse("unknown");
    }

    private static Duration seconds(String text) {
        return Duration.ofMillis((long) (Double.parseDouble(text.replace("s", "")) * 1000));
    }

    private static void split(String text, List<String> into) {
        for (String part : text.trim().split("\\s+")) {
            if (!part.isEmpty()) {
                into.add(part);
            }
        }
    }
}
