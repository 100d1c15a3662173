package dev.synccontext.starter;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code synccontext-bom} names every artifact a user can depend on, at the build's own version, so one
 * import in a user's build gives every synccontext artifact its version. Read from the POMs of the reactor.
 */
class BomTest {

    private static final Path ROOT = Path.of("..");
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final Pattern OWN_ARTIFACT = Pattern.compile("</parent>\\s*<artifactId>([^<]+)</artifactId>");
    private static final Pattern MANAGED = Pattern.compile("<artifactId>(synccontext-[^<]+)</artifactId>");
    private static final Pattern VERSION = Pattern.compile("<synccontext.version>([^<]+)</synccontext.version>");
    private static final Pattern PARENT_VERSION = Pattern.compile("<artifactId>synccontext-parent</artifactId>\\s*<version>([^<]+)</version>");

    @Test
    void theBomManagesEveryPublishedArtifact() throws IOException {
        String bom = Files.readString(ROOT.resolve("bom/pom.xml"));
        List<String> managed = all(MANAGED, bom.substring(bom.indexOf("<dependencyManagement>")));
        assertThat(managed).as("artifacts in bom/pom.xml").containsExactlyInAnyOrderElementsOf(published());
    }

    @Test
    void theBomsVersionIsTheBuildsVersion() throws IOException {
        String bom = Files.readString(ROOT.resolve("bom/pom.xml"));
        String parent = Files.readString(ROOT.resolve("pom.xml"));
        Matcher bomVersion = VERSION.matcher(bom);
        Matcher parentVersion = PARENT_VERSION.matcher(parent);
        assertThat(bomVersion.find()).as("<synccontext.version> in bom/pom.xml").isTrue();
        assertThat(parentVersion.find()).as("the parent's version in pom.xml").isTrue();
        assertThat(bomVersion.group(1)).as("bom/pom.xml's synccontext.version (move it with the parent's)")
                .isEqualTo(parentVersion.group(1));
        assertThat(bom).as("bom/pom.xml's own version").contains("<version>" + parentVersion.group(1) + "</version>");
    }

    /** The reactor's modules that are published: every one but those marked unpublished (samples, benches, tests). */
    private static List<String> published() throws IOException {
        List<String> artifacts = new ArrayList<>();
        for (String module : all(MODULE, Files.readString(ROOT.resolve("pom.xml")))) {
            String pom = Files.readString(ROOT.resolve(module).resolve("pom.xml"));
            Matcher own = OWN_ARTIFACT.matcher(pom);
            if (own.find() && !pom.contains("<synccontext.unpublished>true</synccontext.unpublished>")) {
                artifacts.add(own.group(1));
            }
        }
        return artifacts;
    }

    private static List<String> all(Pattern pattern, String text) {
        List<String> found = new ArrayList<>();
        Matcher matcher = pattern.matcher(text);
        while (matcher.find()) {
            found.add(matcher.group(1));
        }
        return found;
    }
}
