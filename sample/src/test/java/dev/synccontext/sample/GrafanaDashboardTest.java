package dev.synccontext.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;

import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.sample.BoardClient.Reply;
import dev.synccontext.sample.GrafanaDashboard.LabelValuesVariable;
import dev.synccontext.sample.GrafanaDashboard.Query;

/**
 * The Grafana dashboard ({@code grafana/}) works against a real Prometheus scraping the sample: the
 * sample runs on a free port with the faults enabled, gets real traffic (sessions, clicks, posts, a
 * blocked callback, an unhandled error), Debian's {@code prometheus} scrapes it every second with
 * {@code grafana/prometheus.yml} (only target and intervals replaced), and every panel's query, with the
 * dashboard's variables resolved as Grafana would, must return at least one series with a value.
 *
 * <p>The panels of faults must show them, not zeros: the blocked callback and the unhandled error of the load,
 * and the faults {@link DashboardFaults} makes by their real triggers (a session split, a board dropped for a
 * stalled tab, a slow client disconnected, callbacks queued behind a blocked one, the default executor held at
 * its cap). Every alert rule of {@code grafana/alerts.yml} must fire in Prometheus ({@code /api/v1/alerts}) for
 * these faults. One change to the committed rules: the sustained queue depth's {@code for: 5m} is shortened to
 * {@value #QUEUE_DEPTH_FOR} in the copy this Prometheus loads, so that the test holds the backlog seconds, not
 * minutes; {@link AlertRulesTest} runs the committed {@code for} through {@code promtool test rules}. Dropped by
 * policy has no rule on purpose (coalescing a lagging tab's boards is the policy doing its job).
 *
 * <p>Time: Prometheus scrapes and evaluates every second, and every wait is on a condition (a target up, a
 * query's data, an alert's state), each with a deadline; the phases' durations are printed at the end. Prometheus
 * starts while the sample does ({@link #startPrometheusWithTheSample}), which needs the sample's port before it
 * listens: a free one the test picks ({@link PortBelowEphemeralRange}), not a random one Tomcat picks.
 *
 * <p>The sample samples every callback here ({@code sampling-interval=1}) so that the timers and the
 * allocation meters have data after a few seconds of traffic; the default of 1 in 256 would need minutes.
 * The percentile histograms come from the sample's own {@code application.properties}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT, properties = {
        "sample.tick-interval=250ms",
        "sample.quote-latency=300ms",
        "sample.faults.enabled=true",
        "sample.faults.block-for=600ms",
        "synccontext.blocked-threshold=200ms",
        "synccontext.metrics.sampling-interval=1",
})
@Tag("process")
@Import(DisconnectingEvents.class)
class GrafanaDashboardTest {

    private static final String APPLICATION = "synccontext-sample";
    /** What {@code $__rate_interval} becomes: Grafana's is at least 4 scrape intervals; 15 s holds 15 scrapes here. */
    private static final String RATE_INTERVAL = "15s";
    /** What {@code $__range} (the dashboard's time range) becomes. */
    private static final String RANGE = "5m";
    private static final Duration QUERY_DEADLINE = Duration.ofSeconds(60);
    private static final Path WORK_DIR = Path.of("target", "grafana-dashboard-test").toAbsolutePath();
    private static final Path ALERTS = Path.of("grafana", "alerts.yml");
    /** The sustained queue-depth rule, and its {@code for} in the copy of the rules the test's Prometheus loads. */
    private static final String QUEUE_DEPTH_ALERT = "SyncContextQueueDepthSustained";
    private static final String QUEUE_DEPTH_FOR = "3s";
    /** Callbacks held queued: above the queue-depth rule's threshold of 100. */
    private static final int QUEUED = 150;
    /**
     * The alerts the faults must fire, with the scope each must name ("" for the rules that group without one):
     * the blocked callbacks and the backlog are on sessions' contexts, the slow client on a channel of scope session.
     */
    private static final Map<String, String> FIRING = Map.of(
            "SyncContextBlockedCallbacks", "session",
            "SyncContextSessionSplits", "",
            QUEUE_DEPTH_ALERT, "session",
            "SyncContextLiveSlowDisconnects", "session",
            "SyncContextExecutorAtCap", "");

    /** Panels (title, then query) that a fault driven by this test must make non-zero. */
    private static final Set<String> FAULT_QUERIES = Set.of("Splits over the time range A", "Hand-offs and splits B",
            "Dropped by policy A", "Slow disconnects A", "Queued callbacks A");

    /** The sample's port: named in Prometheus's configuration before the sample listens on it. */
    private static volatile int samplePort;
    private static volatile CompletableFuture<PrometheusProcess> prometheusStarting;
    /** {@link #driveLoad()} ran in this class's context. */
    private static volatile boolean loadDriven;

    @LocalServerPort
    int port;

    @Autowired
    WebServerApplicationContext server;

    @Autowired
    LiveBoards liveBoards;

    @Autowired
    SyncContextRegistry registry;

    @Autowired
    DisconnectingEvents.Stream disconnecting;

    /**
     * Sets the sample's port and starts Prometheus while the sample starts, because Prometheus 2.x applies the
     * targets it discovered at most every 5 s (the discovery and scrape managers' fixed throttle): one started after
     * the sample would scrape it 5 to 6 s later, a wait that was a third of the main test. Started here, it scrapes
     * the sample from its first second up. A failed start (no binary, say) fails only the test that uses it.
     */
    @DynamicPropertySource
    static void startPrometheusWithTheSample(DynamicPropertyRegistry properties) {
        samplePort = PortBelowEphemeralRange.pick();
        int port = samplePort;
        properties.add("server.port", () -> port);
        prometheusStarting = CompletableFuture.supplyAsync(() -> {
            try {
                return PrometheusProcess.start(PrometheusProcess.binary(), WORK_DIR, scrapeConfig(port));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        });
    }

    @AfterAll
    static void stopPrometheus() {
        if (prometheusStarting != null) {
            PrometheusProcess started = prometheusStarting.handle((prometheus, failure) -> prometheus).join();
            if (started != null) {
                started.close();
            }
        }
    }

    /** The Prometheus {@link #startPrometheusWithTheSample} started; its start's failure if it failed. */
    private static PrometheusProcess prometheus() {
        try {
            return prometheusStarting.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    @Test
    void dashboardIsProvisionableWithUniqueIdsAndTheDatasourceVariable() throws IOException {
        GrafanaDashboard dashboard = GrafanaDashboard.load();
        JsonNode json = dashboard.json();

        assertThat(json.has("__inputs")).as("__inputs breaks file provisioning (\"Datasource ${DS_...} was not found\")").isFalse();
        assertThat(json.path("uid").asString()).as("dashboard uid").isEqualTo("synccontext");
        assertThat(json.path("schemaVersion").asInt()).as("schemaVersion (Grafana 11 writes 39+)").isGreaterThanOrEqualTo(39);

        Set<Integer> ids = new HashSet<>();
        for (JsonNode panel : dashboard.panels()) {
            assertThat(panel.path("id").isInt()).as("panel \"%s\" has a numeric id", panel.path("title").asString()).isTrue();
            assertThat(ids.add(panel.path("id").asInt())).as("panel id %s is unique", panel.path("id")).isTrue();
        }

        Map<String, JsonNode> variables = new LinkedHashMap<>();
        dashboard.variables().forEach(variable -> variables.put(variable.path("name").asString(), variable));
        assertThat(variables).containsKeys("datasource", "application", "instance", "scope");
        assertThat(variables.get("datasource").path("type").asString()).isEqualTo("datasource");
        assertThat(variables.get("datasource").path("query").asString()).isEqualTo("prometheus");
        for (String name : List.of("application", "instance", "scope")) {
            assertThat(variables.get(name).path("datasource").path("uid").asString())
                    .as("variable %s queries the datasource variable", name).isEqualTo("${datasource}");
        }

        List<String> rows = dashboard.panels().stream().filter(panel -> "row".equals(panel.path("type").asString()))
                .map(panel -> panel.path("title").asString()).toList();
        assertThat(rows).as("rows").contains("Live channels", "Sessions", "Executor");
        LabelValuesVariable scope = dashboard.labelValuesVariables().stream()
                .filter(variable -> variable.name().equals("scope")).findFirst().orElseThrow();
        assertThat(scope.all(List.of("benchmark", "keyed", "session")))
                .as("the scope variable's All leaves out the endpoint's benchmark runs").isEqualTo("(keyed|session)");

        List<JsonNode> dataPanels = dashboard.dataPanels();
        assertThat(dataPanels).as("panels").hasSizeGreaterThanOrEqualTo(20);
        for (JsonNode panel : dataPanels) {
            String title = panel.path("title").asString();
            assertThat(panel.path("datasource").path("uid").asString()).as("panel \"%s\" datasource", title).isEqualTo("${datasource}");
            assertThat(panel.path("targets")).as("panel \"%s\" targets", title).isNotEmpty();
            for (JsonNode target : panel.path("targets")) {
                assertThat(target.path("datasource").path("uid").asString())
                        .as("panel \"%s\" target %s datasource", title, target.path("refId").asString()).isEqualTo("${datasource}");
                assertThat(target.path("expr").asString()).as("panel \"%s\" target expr", title).isNotBlank();
            }
        }
        for (Query query : dashboard.queries()) {
            assertThat(query.metricNames()).as("%s selects at least one metric: %s", query, query.expr()).isNotEmpty();
            assertThat(query.expr()).as("%s filters by the application variable", query).contains("application=\"$application\"");
            assertThat(query.expr()).as("%s filters by the instance variable", query).contains("instance=~\"$instance\"");
        }
    }

    @Test
    void everyMetricTheDashboardUsesIsExportedBySample() throws Exception {
        GrafanaDashboard dashboard = GrafanaDashboard.load();
        if (!loadDriven) {
            driveLoad(); // else the load of an earlier test made the meters, which stay registered in this context
        }
        Set<String> exported = exportedMetricNames();

        Set<String> used = new TreeSet<>();
        dashboard.queries().forEach(query -> used.addAll(query.metricNames()));
        dashboard.labelValuesVariables().forEach(variable -> used.add(variable.selector().replaceAll("\\{.*", "")));
        assertThat(exported).as("metric names in /actuator/prometheus").containsAll(used);
    }

    @Test
    void everyPanelQueryReturnsDataFromARealPrometheusScrapingTheSample() throws Exception {
        Phases phases = new Phases();
        GrafanaDashboard dashboard = GrafanaDashboard.load();
        assertThat(port).as("the sample listens on the port Prometheus scrapes").isEqualTo(samplePort);
        PrometheusProcess prometheus = prometheus();
        try (DashboardFaults faults = new DashboardFaults(port, server, liveBoards)) {
            phases.done("Prometheus ready");
            awaitTargetUp(prometheus);
            phases.done("target up");
            driveLoad();
            phases.done("load driven");
            // First, so that the queue-depth rule's for: runs while the other faults are made; held until the alerts
            // are read, because the rule fires only while the depth stays up.
            DashboardFaults.Backlog backlog = faults.backlog(QUEUED);
            faults.keepSplitting(faults.splitSession(), Duration.ofSeconds(2));
            LiveSubscriber stalledTab = faults.stalledTab();
            LiveSubscriber slowClient = faults.slowClient(disconnecting);
            AutoCloseable slowClients = faults.keepDisconnecting(disconnecting, Duration.ofSeconds(2));
            phases.done("faults made");

            Map<String, String> values = resolveVariables(dashboard, prometheus);
            values.put("__rate_interval", RATE_INTERVAL);
            values.put("__range", RANGE);
            phases.done("variables resolved");

            List<Query> queries = dashboard.queries();
            Map<Query, JsonNode> results = awaitData(prometheus, queries, values,
                    query -> query.panelTitle().endsWith("(time range)")
                            || FAULT_QUERIES.contains(query.panelTitle() + " " + query.refId()));
            phases.done("every panel query has data");
            slowClients.close(); // its drains would wait for a thread while the executor is held at its cap, below

            System.out.printf("Dashboard queries against Prometheus %s (variables %s):%n", prometheus.uri(), values);
            for (Query query : queries) {
                JsonNode result = results.get(query);
                System.out.printf("  %-52s %2d series, max %s%n  %s%n", query, result.size(), maxValue(result),
                        query.substituted(values));
            }
            assertThat(maxValue(results.get(find(queries, "Blocked callbacks (time range)"))))
                    .as("the blocked callback shows on the dashboard").isGreaterThan(0);
            assertThat(maxValue(results.get(find(queries, "Unhandled errors (time range)"))))
                    .as("the unhandled error shows on the dashboard").isGreaterThan(0);
            assertThat(maxValue(results.get(find(queries, "Splits over the time range"))))
                    .as("the split shows on the dashboard").isGreaterThan(0);
            assertThat(maxValue(results.get(find(queries, "Dropped by policy"))))
                    .as("the stalled tab's dropped boards show on the dashboard (it dropped %d)", stalledTab.dropped())
                    .isGreaterThan(0);
            assertThat(maxValue(results.get(find(queries, "Slow disconnects"))))
                    .as("the slow client's disconnect shows on the dashboard (its buffer held %d of %d)",
                            slowClient.highWater(), slowClient.capacity())
                    .isGreaterThan(0);
            assertThat(maxValue(results.get(find(queries, "Queued callbacks"))))
                    .as("the backlog on %s shows on the dashboard", backlog.contextName())
                    .isGreaterThanOrEqualTo(QUEUED);

            // Last: while the executor stays at its cap, the sample's queued work waits for a thread.
            Query capReached = find(queries, "Compensations and cap reached", "B");
            try (DashboardFaults.AtCap atCap = faults.executorAtCap(registry)) {
                phases.done("executor at its cap");
                JsonNode shown = awaitData(prometheus, List.of(capReached), values, query -> true).get(capReached);
                System.out.printf("  %-52s max %s%n", capReached, maxValue(shown));
                phases.done("cap reached on the dashboard");
                awaitAlertsFiring(prometheus);
                phases.done("every alert firing");
                backlog.close();
            }
        } finally {
            phases.print();
            printScrapes(prometheus, phases.elapsedSeconds());
        }
    }

    // ---------------------------------------------------------------- Prometheus side

    /**
     * How Prometheus's scrapes of the sample went in the last {@code seconds}: a scrape slower than its 1 s timeout
     * fails and leaves a gap in every series, which the waits for data then sit out.
     */
    private static void printScrapes(PrometheusProcess prometheus, long seconds) {
        String up = "{job=\"synccontext-sample\"}[" + Math.max(seconds, 1) + "s]";
        try {
            System.out.printf("Scrapes of the sample in the last %d s: %s of %s succeeded; duration median %s s, max %s s%n",
                    seconds,
                    maxValue(prometheus.query("sum_over_time(up" + up + ")")),
                    maxValue(prometheus.query("count_over_time(up" + up + ")")),
                    maxValue(prometheus.query("quantile_over_time(0.5, scrape_duration_seconds" + up + ")")),
                    maxValue(prometheus.query("max_over_time(scrape_duration_seconds" + up + ")")));
        } catch (RuntimeException | AssertionError unavailable) {
            // printed after a failure too: it must not hide that failure
            System.out.println("Scrapes of the sample: Prometheus did not say (" + unavailable + ")");
        }
    }

    /**
     * {@code grafana/prometheus.yml} as committed, pointed at the sample on {@code port}, scraping and evaluating
     * every second, with the rules of {@link #rulesWithShortQueueDepthFor(Path)}.
     */
    @SuppressWarnings("unchecked")
    private static String scrapeConfig(int port) throws IOException {
        Path committed = GrafanaDashboard.repositoryFile(Path.of("grafana", "prometheus.yml"));
        Map<String, Object> config = new Yaml().load(Files.readString(committed));
        Map<String, Object> global = (Map<String, Object>) config.get("global");
        global.put("scrape_interval", "1s");
        global.put("evaluation_interval", "1s");
        List<Map<String, Object>> jobs = (List<Map<String, Object>>) config.get("scrape_configs");
        assertThat(jobs).as("scrape_configs of %s", committed).hasSize(1);
        Map<String, Object> job = jobs.get(0);
        assertThat(job.get("metrics_path")).isEqualTo("/actuator/prometheus");
        assertThat((Map<String, Object>) job.get("basic_auth")).as("basic_auth of %s", committed)
                .containsEntry("username", BoardClient.ACTUATOR_USER)
                .containsEntry("password", BoardClient.ACTUATOR_PASSWORD);
        job.put("scrape_interval", "1s");
        job.put("scrape_timeout", "1s");
        job.put("static_configs", List.of(Map.of("targets", List.of("127.0.0.1:" + port))));
        assertThat((List<String>) config.get("rule_files")).as("rule_files of %s", committed).containsExactly("/etc/prometheus/alerts.yml");
        config.put("rule_files", List.of(rulesWithShortQueueDepthFor(WORK_DIR).toString()));
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        return new Yaml(options).dump(config);
    }

    /**
     * {@code grafana/alerts.yml} as committed but for the queue-depth rule's {@code for} ({@code 5m} there,
     * {@value #QUEUE_DEPTH_FOR} here), written to {@code workDir}: a real backlog must fire it, and five minutes
     * of one would be most of this test's time. What {@code for: 5m} does is {@link AlertRulesTest}'s part.
     */
    @SuppressWarnings("unchecked")
    private static Path rulesWithShortQueueDepthFor(Path workDir) throws IOException {
        Path committed = GrafanaDashboard.repositoryFile(ALERTS);
        Map<String, Object> file = new Yaml().load(Files.readString(committed));
        int changed = 0;
        for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
            for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                if (QUEUE_DEPTH_ALERT.equals(rule.get("alert"))) {
                    assertThat(rule.get("for")).as("the for of %s in %s", QUEUE_DEPTH_ALERT, committed).isEqualTo("5m");
                    rule.put("for", QUEUE_DEPTH_FOR);
                    changed++;
                }
            }
        }
        assertThat(changed).as("rules named %s in %s", QUEUE_DEPTH_ALERT, committed).isOne();
        Files.createDirectories(workDir);
        Path copy = workDir.resolve("alerts.yml");
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        Files.writeString(copy, new Yaml(options).dump(file));
        return copy;
    }

    private void awaitTargetUp(PrometheusProcess prometheus) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        JsonNode targets = prometheus.activeTargets();
        while (System.nanoTime() < deadline) {
            targets = prometheus.activeTargets();
            for (JsonNode target : targets) {
                if ("up".equals(target.path("health").asString())) {
                    return;
                }
            }
            assertThat(prometheus.isAlive()).as("prometheus is running:\n%s", prometheus.logTail()).isTrue();
            Thread.sleep(200); // poll interval, bounded by the deadline
        }
        throw new AssertionError("Prometheus never scraped the sample successfully: " + targets + "\n" + prometheus.logTail());
    }

    /**
     * The variables as Grafana resolves them: application = the one value its label_values query finds
     * (must be this sample), the multi-value ones = their "All" value.
     */
    private Map<String, String> resolveVariables(GrafanaDashboard dashboard, PrometheusProcess prometheus)
            throws InterruptedException {
        Map<String, String> values = new LinkedHashMap<>();
        for (LabelValuesVariable variable : dashboard.labelValuesVariables()) {
            String selector = new Query(0, variable.name(), "", variable.selector()).substituted(values);
            List<String> found = prometheus.labelValues(variable.label(), selector);
            if (variable.name().equals("scope")) {
                // The scenario run's scope appears with the first scrape after it: wait for it (bounded).
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (!found.contains("benchmark") && System.nanoTime() < deadline) {
                    Thread.sleep(500); // poll interval, bounded by the deadline
                    found = prometheus.labelValues(variable.label(), selector);
                }
            }
            assertThat(found).as("variable %s: label_values(%s, %s)", variable.name(), selector, variable.label()).isNotEmpty();
            if (variable.name().equals("application")) {
                assertThat(found).contains(APPLICATION);
                values.put(variable.name(), APPLICATION);
            } else {
                assertThat(variable.includeAll()).as("variable %s has an All value", variable.name()).isTrue();
                values.put(variable.name(), variable.all(found));
            }
            if (variable.name().equals("scope")) {
                assertThat(found).as("scopes in Prometheus (the endpoint's run made benchmark)").contains("benchmark", "session");
                assertThat(Pattern.matches(values.get("scope"), "benchmark")).as("All (%s) matches benchmark", values.get("scope")).isFalse();
                assertThat(Pattern.matches(values.get("scope"), "session")).as("All (%s) matches session", values.get("scope")).isTrue();
            }
        }
        return values;
    }

    /**
     * Polls every query until it returns at least one series with a finite value (NaN is what a ratio or a
     * quantile over an empty window gives: not data), above 0 for those that {@code showFault}, or the
     * deadline passes.
     */
    private static Map<Query, JsonNode> awaitData(PrometheusProcess prometheus, List<Query> queries, Map<String, String> values,
            Predicate<Query> showsFault) throws InterruptedException {
        Map<Query, JsonNode> results = new LinkedHashMap<>();
        List<Query> pending = new ArrayList<>(queries);
        long deadline = System.nanoTime() + QUERY_DEADLINE.toNanos();
        while (true) {
            for (Query query : List.copyOf(pending)) {
                String promql = query.substituted(values);
                assertThat(promql).as("%s: every variable substituted", query).doesNotContain("$");
                JsonNode result = prometheus.query(promql);
                results.put(query, result);
                boolean hasData = !result.isEmpty() && Double.isFinite(maxValue(result));
                boolean faultShown = !showsFault.test(query) || maxValue(result) > 0;
                if (hasData && faultShown) {
                    pending.remove(query);
                }
            }
            if (pending.isEmpty()) {
                return results;
            }
            if (System.nanoTime() > deadline) {
                StringBuilder failures = new StringBuilder();
                for (Query query : pending) {
                    failures.append("\n  ").append(query).append(": ").append(query.substituted(values))
                            .append("\n    -> ").append(results.get(query));
                }
                throw new AssertionError(pending.size() + " of " + queries.size() + " dashboard queries returned no data within "
                        + QUERY_DEADLINE + ":" + failures);
            }
            Thread.sleep(500); // poll interval, bounded by the deadline
        }
    }

    /**
     * Every rule of {@code grafana/alerts.yml} was loaded and evaluated without error ({@code /api/v1/rules}), and
     * every alert of {@link #FIRING} is firing for its scope ({@code /api/v1/alerts}): blocked callbacks, splits, the
     * sustained queue depth, slow disconnects and the executor's cap, each for the fault this test made.
     */
    private static void awaitAlertsFiring(PrometheusProcess prometheus) throws InterruptedException {
        Set<String> expected = alertNames();
        assertThat(FIRING.keySet()).as("alerts this test fires").containsExactlyInAnyOrderElementsOf(expected);
        long deadline = System.nanoTime() + QUERY_DEADLINE.toNanos();
        Map<String, JsonNode> rules = new LinkedHashMap<>();
        while (true) {
            rules.clear();
            for (JsonNode group : prometheus.ruleGroups()) {
                for (JsonNode rule : group.path("rules")) {
                    rules.put(rule.path("name").asString(), rule);
                }
            }
            List<String> pending = new ArrayList<>();
            for (String name : expected) {
                JsonNode rule = rules.get(name);
                if (rule == null || rule.path("lastEvaluation").asString().startsWith("0001-")) {
                    pending.add(name + " (not evaluated yet)");
                } else {
                    assertThat(rule.path("health").asString()).as("rule %s: %s", name, rule.path("lastError")).isEqualTo("ok");
                }
            }
            JsonNode alerts = prometheus.alerts();
            FIRING.forEach((name, scope) -> {
                if (!firing(alerts, name, scope)) {
                    pending.add(name + " firing" + (scope.isEmpty() ? "" : " for scope " + scope));
                }
            });
            if (pending.isEmpty()) {
                System.out.printf("Alerts firing in Prometheus:%n");
                for (JsonNode alert : alerts) {
                    System.out.printf("  %-34s %-8s %s%n", alert.path("labels").path("alertname").asString(),
                            alert.path("state").asString(), alert.path("labels"));
                }
                assertThat(rules.keySet()).as("rules Prometheus loaded").containsExactlyInAnyOrderElementsOf(expected);
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("alert rules within " + QUERY_DEADLINE + ": " + pending + "\nalerts: " + alerts
                        + "\nrules: " + rules + "\n" + prometheus.logTail());
            }
            Thread.sleep(500); // poll interval, bounded by the deadline
        }
    }

    /** Whether {@code alerts} has {@code name} firing, for {@code scope} unless that is empty. */
    private static boolean firing(JsonNode alerts, String name, String scope) {
        for (JsonNode alert : alerts) {
            JsonNode labels = alert.path("labels");
            if (name.equals(labels.path("alertname").asString()) && "firing".equals(alert.path("state").asString())
                    && (scope.isEmpty() || scope.equals(labels.path("scope").asString()))) {
                return true;
            }
        }
        return false;
    }

    /** The alert names in {@code grafana/alerts.yml}. */
    @SuppressWarnings("unchecked")
    static Set<String> alertNames() {
        try {
            Map<String, Object> file = new Yaml().load(Files.readString(GrafanaDashboard.repositoryFile(ALERTS)));
            Set<String> names = new TreeSet<>();
            for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
                for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                    names.add((String) rule.get("alert"));
                }
            }
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The largest finite value of an instant vector, NaN when it has none. */
    private static double maxValue(JsonNode vector) {
        double max = Double.NaN;
        for (JsonNode series : vector) {
            String text = series.path("value").path(1).asString();
            double value = switch (text) {
                case "NaN", "+Inf", "-Inf" -> Double.NaN;
                default -> Double.parseDouble(text);
            };
            if (!Double.isNaN(value) && (Double.isNaN(max) || value > max)) {
                max = value;
            }
        }
        return max;
    }

    private static Query find(List<Query> queries, String panelTitle, String refId) {
        return queries.stream().filter(query -> query.panelTitle().equals(panelTitle) && query.refId().equals(refId))
                .findFirst().orElseThrow(() -> new AssertionError("no query " + refId + " in panel " + panelTitle));
    }

    private static Query find(List<Query> queries, String panelTitle) {
        return queries.stream().filter(query -> query.panelTitle().equals(panelTitle)).findFirst()
                .orElseThrow(() -> new AssertionError("no panel titled " + panelTitle));
    }

    // ---------------------------------------------------------------- sample side

    private Set<String> exportedMetricNames() {
        Reply scrape = new BoardClient(port).getAsActuator("/actuator/prometheus");
        assertThat(scrape.status()).as("GET /actuator/prometheus").isEqualTo(200);
        Set<String> names = new TreeSet<>();
        scrape.body().lines()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .forEach(line -> names.add(line.split("[{ ]", 2)[0]));
        return names;
    }

    /**
     * Real traffic: four sessions, each clicked from two threads at once (so callbacks queue), list items
     * and a quote, an open event stream per session; one blocked callback (600 ms against a 200 ms
     * threshold, with clicks queued behind it) and one posted callback that throws. A full GC first:
     * the JVM's GC pause timer exists only after a collection, and a freshly started one may not have had one.
     */
    private void driveLoad() throws Exception {
        System.gc();
        List<BoardClient> sessions = new ArrayList<>();
        List<EventStream> streams = new ArrayList<>();
        ExecutorService tabs = Executors.newFixedThreadPool(8);
        try {
            for (int i = 0; i < 4; i++) {
                BoardClient session = new BoardClient(port);
                assertThat(session.get("/api/board").status()).isEqualTo(200);
                sessions.add(session);
                streams.add(session.events());
            }
            List<Future<?>> work = new ArrayList<>();
            work.add(tabs.submit(() -> expect(200, sessions.get(0).post("/api/faults/blocking-callback"))));
            expect(202, sessions.get(1).post("/api/faults/failing-post"));
            for (BoardClient session : sessions) {
                for (int tab = 0; tab < 2; tab++) {
                    int t = tab;
                    work.add(tabs.submit(() -> {
                        for (int click = 0; click < 25; click++) {
                            expect(200, session.post("/api/counter/increment"));
                        }
                        expect(200, session.postForm("/api/items", "text", "item from tab " + t));
                    }));
                }
                work.add(tabs.submit(() -> expect(200, session.postForm("/api/quote", "symbol", "ACME"))));
            }
            for (Future<?> done : work) {
                done.get(60, TimeUnit.SECONDS);
            }
            for (EventStream stream : streams) {
                stream.awaitFirstBoard();
            }
            // A tiny scenario run: its contexts are scope "benchmark", which the scope variable's All leaves out.
            BoardClient admin = new BoardClient(port);
            expect(200, admin.send(admin.request("/actuator/synccontext")
                    .header("Authorization", BoardClient.basic(BoardClient.ACTUATOR_USER, BoardClient.ACTUATOR_PASSWORD))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"scenarios\":\"InvokeAsyncReady\",\"iterations\":2,\"warmups\":1}"))));
            loadDriven = true;
        } finally {
            streams.forEach(EventStream::close);
            tabs.shutdownNow();
        }
    }

    private static void expect(int status, Reply reply) {
        assertThat(reply.status()).as("%s", reply).isEqualTo(status);
    }

    /** How long each phase of a test took, printed at its end: where the test's time goes. */
    private static final class Phases {

        private final long started = System.nanoTime();
        private long last = started;
        private final StringBuilder lines = new StringBuilder();

        void done(String phase) {
            long now = System.nanoTime();
            lines.append(String.format("  %-32s %6d ms%n", phase, (now - last) / 1_000_000));
            last = now;
        }

        long elapsedSeconds() {
            return (System.nanoTime() - started) / 1_000_000_000;
        }

        void print() {
            System.out.printf("Phases:%n%s  %-32s %6d ms%n", lines, "total", (System.nanoTime() - started) / 1_000_000);
        }
    }
}
