package dev.synccontext.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.scope.ContextScoped;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The packages of {@code synccontext-core}, the Spring library and this module form no cycle: each part depends
 * on the root and on core, never the other way round; and the library never depends on Boot's wiring. Read from
 * the compiled classes with the JDK's {@code jdeps}, so an import, a field type or a call anywhere counts.
 */
class PackageCyclesTest {

    private static final Pattern EDGE = Pattern.compile("^\\s+(dev\\.synccontext[\\w.]*)\\s+->\\s+(dev\\.synccontext[\\w.]*)\\s");

    @Test
    void noPackageReachesItselfThroughOthers() throws URISyntaxException {
        Map<String, Set<String>> graph = new TreeMap<>();
        dependencies(location(RendererSyncContext.class), graph);
        dependencies(location(ContextScoped.class), graph);
        dependencies(location(SyncContextAutoConfiguration.class), graph);
        assertThat(graph).as("jdeps found the packages").containsKeys("dev.synccontext.registry",
                "dev.synccontext.spring.session", "dev.synccontext.autoconfigure.session");
        assertThat(cycles(graph)).as("package cycles in %s", graph).isEmpty();
    }

    @Test
    void theLibraryNeverDependsOnBootsWiring() throws URISyntaxException {
        Map<String, Set<String>> graph = new TreeMap<>();
        dependencies(location(ContextScoped.class), graph);
        assertThat(graph).as("jdeps found the library's packages").containsKey("dev.synccontext.spring.scope");
        graph.forEach((from, to) -> assertThat(to).as("what %s depends on", from)
                .noneMatch(target -> target.startsWith("dev.synccontext.autoconfigure")));
    }

    @Test
    void theCycleFinderFindsACycle() {
        Map<String, Set<String>> graph = new TreeMap<>();
        graph.put("a", Set.of("b"));
        graph.put("b", Set.of("c"));
        graph.put("c", Set.of("a"));
        graph.put("d", Set.of("a"));
        assertThat(cycles(graph)).containsExactly(List.of("a", "b", "c", "a"));
    }

    private static Path location(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static void dependencies(Path classes, Map<String, Set<String>> graph) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        StringWriter out = new StringWriter();
        int exit = jdeps.run(new PrintWriter(out), new PrintWriter(new StringWriter()),
                "-verbose:package", "-filter:none", classes.toString());
        assertThat(exit).as("jdeps on %s:%n%s", classes, out).isZero();
        for (String line : out.toString().split("\\R")) {
            Matcher edge = EDGE.matcher(line);
            if (edge.find() && !edge.group(1).equals(edge.group(2))) {
                graph.computeIfAbsent(edge.group(1), k -> new TreeSet<>()).add(edge.group(2));
            }
        }
    }

    /** Every cycle found by a depth-first walk, each as the path that closes it. */
    static List<List<String>> cycles(Map<String, Set<String>> graph) {
        List<List<String>> found = new ArrayList<>();
        Set<String> done = new HashSet<>();
        for (String start : graph.keySet()) {
            walk(start, graph, new ArrayDeque<>(), new HashMap<>(), done, found);
        }
        return found;
    }

    private static void walk(String node, Map<String, Set<String>> graph, Deque<String> path,
            Map<String, Boolean> onPath, Set<String> done, List<List<String>> found) {
        if (done.contains(node)) {
            return;
        }
        path.addLast(node);
        onPath.put(node, true);
        for (String next : graph.getOrDefault(node, Set.of())) {
            if (Boolean.TRUE.equals(onPath.get(next))) {
                List<String> cycle = new ArrayList<>(path);
                cycle = new ArrayList<>(cycle.subList(cycle.indexOf(next), cycle.size()));
                cycle.add(next);
                found.add(cycle);
            } else {
                walk(next, graph, path, onPath, done, found);
            }
        }
        onPath.put(node, false);
        path.removeLast();
        done.add(node);
    }
}
