package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * What every user of {@code synccontext-core} ships, checked on the packaged jar (failsafe runs this
 * after {@code package}): only the runtime and its Micrometer binder, no benchmark scenario, and no
 * dependency a user's build would pull in besides the JDK (Micrometer is optional; JSpecify and Error
 * Prone's annotations are provided).
 */
class CoreArtifactIT {

    private static final Path JAR = Path.of(System.getProperty("core.jar", "target/missing.jar"));
    private static final Path POM = Path.of(System.getProperty("core.pom", "pom.xml"));
    private static final Path PARENT_POM = Path.of(System.getProperty("parent.pom", "../pom.xml"));
    private static final Path TREE = Path.of(System.getProperty("core.dependency.tree", "target/missing.txt"));

    @Test
    void theJarHoldsTheRuntimeAndNoScenarioClass() throws IOException {
        assertThat(JAR).as("the packaged core jar").exists();
        List<String> classes = new ArrayList<>();
        try (JarFile jar = new JarFile(JAR.toFile())) {
            for (var entry : Collections.list(jar.entries())) {
                if (entry.getName().endsWith(".class")) {
                    classes.add(entry.getName());
                }
            }
            Manifest manifest = jar.getManifest();
            assertThat(manifest.getMainAttributes().getValue("Automatic-Module-Name")).isEqualTo("dev.synccontext");
        }
        assertThat(classes).as("jar tf %s", JAR).contains("dev/synccontext/RendererSyncContext.class",
                "dev/synccontext/micrometer/SyncContextMetrics.class");
        assertThat(classes).as("benchmark code ships in synccontext-scenarios, never in the runtime jar")
                .noneMatch(name -> name.startsWith("dev/synccontext/scenario/") || name.contains("Baseline"));
        assertThat(classes).as("only the project's own packages").allMatch(name -> name.startsWith("dev/synccontext/"));
    }

    @Test
    void noDependencyReachesAUsersRuntimeClassPath() throws Exception {
        for (Element dependency : dependencies(POM)) {
            String id = text(dependency, "groupId") + ":" + text(dependency, "artifactId");
            String scope = text(dependency, "scope");
            boolean optional = "true".equals(text(dependency, "optional"));
            assertThat(optional || "test".equals(scope) || "provided".equals(scope))
                    .as("%s in %s must be test, provided or optional (scope %s)", id, POM, scope).isTrue();
        }
        assertThat(dependencies(PARENT_POM)).as("dependencies every module inherits from %s", PARENT_POM).isEmpty();
    }

    @Test
    void theResolvedRuntimeTreeHoldsOnlyOptionalDependencies() throws IOException {
        // mvn dependency:tree -Dscope=runtime, written at package time: the artifact, then one line per
        // dependency; a user's build skips every "(optional)" one and everything below it.
        List<String> lines = Files.readAllLines(TREE);
        assertThat(lines.get(0)).startsWith("dev.synccontext:synccontext-core:jar:");
        assertThat(lines.subList(1, lines.size())).as("runtime dependency tree %s", TREE)
                .allMatch(line -> line.endsWith("(optional)"))
                .anyMatch(line -> line.contains("io.micrometer:micrometer-core:"));
    }

    /** The {@code <dependency>} elements of the project's own {@code <dependencies>}, not its management. */
    private static List<Element> dependencies(Path pom) throws Exception {
        assertThat(pom).exists();
        var factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Element project = factory.newDocumentBuilder().parse(Files.newInputStream(pom)).getDocumentElement();
        List<Element> found = new ArrayList<>();
        for (Node child = project.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child instanceof Element section && section.getTagName().equals("dependencies")) {
                NodeList list = section.getElementsByTagName("dependency");
                for (int i = 0; i < list.getLength(); i++) {
                    found.add((Element) list.item(i));
                }
            }
        }
        return found;
    }

    private static String text(Element parent, String tag) {
        NodeList nodes = parent.getElementsByTagName(tag);
        return nodes.getLength() == 0 ? null : nodes.item(0).getTextContent().trim();
    }
}
