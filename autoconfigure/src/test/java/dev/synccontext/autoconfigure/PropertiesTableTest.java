package dev.synccontext.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The property table of autoconfigure/docs/properties.md is the configuration metadata (generated from the properties
 * classes, merged with the additional metadata): every {@code synccontext.*} property has a row, and no row, nor
 * any {@code synccontext.x=value} the READMEs and reference pages show, names a property that does not exist.
 */
class PropertiesTableTest {

    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern ROW = Pattern.compile("^\\| `(synccontext\\.[a-z0-9.-]+)` \\|", Pattern.MULTILINE);
    private static final Pattern SETTING = Pattern.compile("`(synccontext\\.[a-z0-9.-]+)=");

    @Test
    void theTableHasARowForEveryPropertyAndNoOther() throws IOException {
        Set<String> rows = new TreeSet<>();
        Matcher row = ROW.matcher(Files.readString(REPOSITORY.resolve("autoconfigure/docs/properties.md")));
        while (row.find()) {
            rows.add(row.group(1));
        }
        assertThat(rows).as("the property table of autoconfigure/docs/properties.md against the configuration metadata")
                .containsExactlyElementsOf(properties());
    }

    @Test
    void everySettingTheReadmesShowExists() throws IOException {
        Set<String> properties = properties();
        for (Path readme : ReadmeJavaBlocksTest.readmes()) {
            Matcher setting = SETTING.matcher(Files.readString(readme));
            while (setting.find()) {
                assertThat(properties).as(REPOSITORY.relativize(readme) + " sets " + setting.group(1)).contains(setting.group(1));
            }
        }
    }

    private static Set<String> properties() throws IOException {
        Set<String> names = new TreeSet<>();
        try (InputStream in = PropertiesTableTest.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("generated metadata on the class path").isNotNull();
            for (JsonNode property : JsonMapper.builder().build().readTree(in).get("properties")) {
                String name = property.get("name").asString();
                if (name.startsWith("synccontext.")) {
                    names.add(name);
                }
            }
        }
        return names;
    }
}
