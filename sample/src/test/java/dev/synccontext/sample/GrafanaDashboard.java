package dev.synccontext.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The repository's Grafana dashboard ({@code grafana/dashboards/synccontext.json}) read as Grafana reads
 * it: its panels (rows' nested panels included), their Prometheus queries, and its template variables.
 */
final class GrafanaDashboard {

    /** A metric selector as the dashboard writes every one of them: {@code name{labels}}. */
    private static final Pattern SELECTOR = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\{");
    /** {@code label_values(metric{...}, label)} or {@code label_values(metric, label)}. */
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\(\\s*(.+?)\\s*,\\s*(\\w+)\\s*\\)");

    /** One query of one panel. */
    record Query(int panelId, String panelTitle, String refId, String expr) {

        /** Metric names of the selectors in {@link #expr()}. */
        Set<String> metricNames() {
            Set<String> names = new LinkedHashSet<>();
            Matcher matcher = SELECTOR.matcher(expr);
            while (matcher.find()) {
                names.add(matcher.group(1));
            }
            return names;
        }

        /** The expression with Grafana's variables replaced by {@code values} (name without {@code $}). */
        String substituted(Map<String, String> values) {
            String result = expr;
            // longest names first, so $__range never eats the start of a longer name
            for (String name : values.keySet().stream().sorted((a, b) -> b.length() - a.length()).toList()) {
                result = result.replace("${" + name + "}", values.get(name)).replace("$" + name, values.get(name));
            }
            return result;
        }

        @Override
        public String toString() {
            return "panel " + panelId + " \"" + panelTitle + "\" " + refId;
        }
    }

    /**
     * A {@code label_values(selector, label)} template variable; {@code regex} is Grafana's filter on the
     * values ({@code /.../}, JavaScript syntax; null when none), {@code allValue} its custom "All" value (null
     * when "All" is every value the filter keeps, or when it has no "All").
     */
    record LabelValuesVariable(String name, String selector, String label, @Nullable String allValue,
            @Nullable String regex, boolean includeAll) {

        /** The values Grafana offers: {@code found} filtered by {@link #regex()}. */
        List<String> options(List<String> found) {
            if (regex == null) {
                return found;
            }
            Pattern filter = Pattern.compile(regex.substring(1, regex.lastIndexOf('/')));
            return found.stream().filter(value -> filter.matcher(value).find()).toList();
        }

        /**
         * What {@code $name} becomes with "All" selected, as Grafana writes it for Prometheus: the custom
         * value, or else every option, regex-escaped, as {@code (a|b)}.
         */
        String all(List<String> found) {
            if (allValue != null) {
                return allValue;
            }
            List<String> options = options(found);
            return options.size() == 1 ? escape(options.get(0))
                    : "(" + String.join("|", options.stream().map(LabelValuesVariable::escape).toList()) + ")";
        }

        private static String escape(String value) {
            return value.replaceAll("[\\^$*+?.()|{}\\[\\]]", "\\\\$0");
        }
    }

    static final Path FILE = Path.of("grafana", "dashboards", "synccontext.json");

    private final Path path;
    private final JsonNode json;

    private GrafanaDashboard(Path path, JsonNode json) {
        this.path = path;
        this.json = json;
    }

    /** Reads the dashboard from the repository (found from the working directory upwards). */
    static GrafanaDashboard load() throws IOException {
        Path file = repositoryFile(FILE);
        return new GrafanaDashboard(file, BoardClient.JSON.readTree(Files.readString(file)));
    }

    /** {@code relative} resolved against the nearest directory, from the working directory up, that has it. */
    static Path repositoryFile(Path relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(relative))) {
                return dir.resolve(relative);
            }
        }
        throw new AssertionError(relative + " not found in " + Path.of("").toAbsolutePath() + " or any parent");
    }

    Path path() {
        return path;
    }

    JsonNode json() {
        return json;
    }

    /** Every panel, rows and the panels nested in collapsed rows included, in file order. */
    List<JsonNode> panels() {
        List<JsonNode> panels = new ArrayList<>();
        for (JsonNode panel : json.path("panels")) {
            panels.add(panel);
            for (JsonNode nested : panel.path("panels")) {
                panels.add(nested);
            }
        }
        return panels;
    }

    /** Panels that show data (everything except rows). */
    List<JsonNode> dataPanels() {
        return panels().stream().filter(panel -> !"row".equals(panel.path("type").asString())).toList();
    }

    List<Query> queries() {
        List<Query> queries = new ArrayList<>();
        for (JsonNode panel : dataPanels()) {
            for (JsonNode target : panel.path("targets")) {
                queries.add(new Query(panel.path("id").asInt(), panel.path("title").asString(),
                        target.path("refId").asString(), target.path("expr").asString()));
            }
        }
        return queries;
    }

    List<JsonNode> variables() {
        List<JsonNode> variables = new ArrayList<>();
        json.path("templating").path("list").forEach(variables::add);
        return variables;
    }

    /** The {@code query}-type variables, parsed ({@code label_values(...)} is the only form the dashboard uses). */
    List<LabelValuesVariable> labelValuesVariables() {
        List<LabelValuesVariable> parsed = new ArrayList<>();
        for (JsonNode variable : variables()) {
            if (!"query".equals(variable.path("type").asString())) {
                continue;
            }
            JsonNode query = variable.path("query");
            String text = query.isObject() ? query.path("query").asString() : query.asString();
            Matcher matcher = LABEL_VALUES.matcher(text);
            if (!matcher.matches()) {
                throw new AssertionError("variable " + variable.path("name").asString()
                        + ": expected label_values(selector, label), was " + text);
            }
            boolean includeAll = variable.path("includeAll").asBoolean();
            String allValue = variable.path("allValue").asString("");
            String regex = variable.path("regex").asString("");
            parsed.add(new LabelValuesVariable(variable.path("name").asString(), matcher.group(1), matcher.group(2),
                    includeAll && !allValue.isEmpty() ? allValue : null, regex.isEmpty() ? null : regex, includeAll));
        }
        return parsed;
    }
}
