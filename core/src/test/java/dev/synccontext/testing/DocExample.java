package dev.synccontext.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An example a doc shows whose files the build compiles: the doc (README.md, a module's docs page) shows each file
 * in a {@code ```java} block right after a {@code <!-- file: path -->} line, and a test holds it to the sources so
 * the example cannot rot. Paths are from the repository's root, the parent of the module Surefire runs in.
 * Shared through core's test jar.
 */
public final class DocExample {

    private static final Pattern FILE_BLOCK = Pattern.compile("<!-- file: (\\S+) -->\\n```java\\n(.*?)```", Pattern.DOTALL);
    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();

    private DocExample() {
    }

    /**
     * Asserts that {@code doc} shows, of the files in {@code folder} (ending in {@code /}), exactly {@code files}
     * (their names in it), each verbatim; the doc may show other folders' files too.
     */
    public static void assertShowsVerbatim(String doc, String folder, String... files) throws IOException {
        Map<String, String> shown = new LinkedHashMap<>();
        Matcher matcher = FILE_BLOCK.matcher(Files.readString(REPOSITORY.resolve(doc)));
        while (matcher.find()) {
            if (matcher.group(1).startsWith(folder)) { // the doc shows other parts' examples too
                shown.put(matcher.group(1), matcher.group(2));
            }
        }
        assertThat(shown).as("files of %s that %s shows", folder, doc)
                .containsOnlyKeys(Arrays.stream(files).map(folder::concat).toArray(String[]::new));
        for (Map.Entry<String, String> file : shown.entrySet()) {
            assertThat(file.getValue()).as("%s's copy of %s (update the doc when the file changes)", doc, file.getKey())
                    .isEqualTo(Files.readString(REPOSITORY.resolve(file.getKey())));
        }
    }
}
