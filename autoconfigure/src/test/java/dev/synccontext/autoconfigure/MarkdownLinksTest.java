package dev.synccontext.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the repository's Markdown files (README.md, the modules' READMEs and reference pages,
 * docs/) resolves: the file or folder exists and, for a {@code #fragment} into a Markdown file, that file has a
 * heading with that anchor (GitHub's rule: lower case, punctuation dropped, spaces to hyphens, {@code -1},
 * {@code -2}… for repeats). Links inside fenced code blocks and absolute URLs are not checked.
 */
class MarkdownLinksTest {

    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} (.*)$");
    private static final Pattern SCHEME = Pattern.compile("^[a-z][a-z0-9+.-]*:");

    @Test
    void everyRelativeLinkResolves() throws IOException {
        List<Path> pages = markdownFiles();
        assertThat(pages).as("Markdown files of the repository").contains(REPOSITORY.resolve("README.md"));
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            List<String> lines = Files.readAllLines(page);
            boolean inCode = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.strip().startsWith("```")) {
                    inCode = !inCode;
                }
                if (inCode) {
                    continue;
                }
                Matcher link = LINK.matcher(line);
                while (link.find()) {
                    String problem = problem(page, link.group(1), anchors);
                    if (problem != null) {
                        broken.add(REPOSITORY.relativize(page) + ":" + (i + 1) + ": " + link.group(1) + " (" + problem + ")");
                    }
                }
            }
        }
        assertThat(broken).as("relative links that do not resolve").isEmpty();
    }

    /** Why {@code target}, linked from {@code page}, does not resolve; null when it does. */
    private static String problem(Path page, String target, Map<Path, Set<String>> anchors) throws IOException {
        if (SCHEME.matcher(target).find()) {
            return null; // an absolute URL: not this test's business
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        Path file = path.isEmpty() ? page : page.getParent().resolve(path).normalize();
        if (!Files.exists(file)) {
            return "no such file";
        }
        if (hash < 0 || !file.toString().endsWith(".md")) {
            return null;
        }
        String fragment = target.substring(hash + 1);
        Set<String> known = anchors.get(file);
        if (known == null) {
            known = anchorsOf(file);
            anchors.put(file, known);
        }
        return known.contains(fragment) ? null : "no heading with that anchor";
    }

    static Set<String> anchorsOf(Path page) throws IOException {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> repeats = new HashMap<>();
        boolean inCode = false;
        for (String line : Files.readAllLines(page)) {
            if (line.strip().startsWith("```")) {
                inCode = !inCode;
            }
            Matcher heading = HEADING.matcher(line);
            if (!inCode && heading.matches()) {
                String anchor = heading.group(1).strip().toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
                int seen = repeats.merge(anchor, 1, Integer::sum) - 1;
                anchors.add(seen == 0 ? anchor : anchor + "-" + seen);
            }
        }
        return anchors;
    }

    private static List<Path> markdownFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        Files.walkFileTree(REPOSITORY, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                boolean skipped = !dir.equals(REPOSITORY)
                        && (name.startsWith(".") || name.equals("target") || name.equals("node_modules"));
                return skipped ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                if (file.toString().endsWith(".md")) {
                    files.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        files.sort(null);
        return files;
    }
}
