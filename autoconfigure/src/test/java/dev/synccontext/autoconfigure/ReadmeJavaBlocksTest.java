package dev.synccontext.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every Java block in README.md, the modules' READMEs and their reference pages ({@code <module>/docs/*.md}) is either compiled by the build or visibly a fragment:
 * a block right after {@code <!-- file: path -->} is that file of the repository, verbatim (and the build compiles
 * and runs it); one right after {@code <!-- fragment -->} opens with a {@code // fragment} comment, so a reader
 * sees that it will not compile as shown. No other Java block is allowed.
 */
class ReadmeJavaBlocksTest {

    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final String FILE_MARKER = "<!-- file: ";
    private static final String FRAGMENT_MARKER = "<!-- fragment -->";

    /** One ```java block: where it is, the line before it, and its text with the block's indentation removed. */
    record Block(Path readme, int line, String marker, String text) {

        String where() {
            return REPOSITORY.relativize(readme) + ":" + line;
        }
    }

    @Test
    void everyJavaBlockIsMarkedAsAFileOrAFragment() throws IOException {
        List<String> unmarked = new ArrayList<>();
        for (Block block : blocks()) {
            if (!block.marker().startsWith(FILE_MARKER) && !block.marker().equals(FRAGMENT_MARKER)) {
                unmarked.add(block.where());
            }
        }
        assertThat(unmarked).as("```java blocks with neither <!-- file: path --> (compiled by a test) nor"
                + " <!-- fragment --> on the line before").isEmpty();
    }

    @Test
    void aFileBlockIsThatFileVerbatim() throws IOException {
        List<Block> files = blocks().stream().filter(block -> block.marker().startsWith(FILE_MARKER)).toList();
        assertThat(files).as("file blocks").isNotEmpty();
        for (Block block : files) {
            String path = block.marker().substring(FILE_MARKER.length(), block.marker().length() - " -->".length()).trim();
            Path file = REPOSITORY.resolve(path);
            assertThat(file).as(block.where() + " names a file of the repository").isRegularFile();
            assertThat(block.text()).as(block.where() + " shows " + path + " verbatim").isEqualTo(Files.readString(file));
        }
    }

    @Test
    void aFragmentSaysSoOnItsFirstLine() throws IOException {
        for (Block block : blocks()) {
            if (block.marker().equals(FRAGMENT_MARKER)) {
                assertThat(block.text()).as(block.where() + ": a fragment opens with a visible // fragment comment")
                        .startsWith("// fragment");
            }
        }
    }

    static List<Path> readmes() throws IOException {
        List<Path> readmes = new ArrayList<>();
        readmes.add(REPOSITORY.resolve("README.md"));
        try (Stream<Path> modules = Files.list(REPOSITORY)) {
            for (Path module : modules.filter(Files::isDirectory).sorted().toList()) {
                Path readme = module.resolve("README.md");
                if (Files.isRegularFile(readme)) {
                    readmes.add(readme);
                }
                Path docs = module.resolve("docs");
                if (!module.getFileName().toString().equals("docs") && Files.isDirectory(docs)) {
                    try (Stream<Path> pages = Files.list(docs)) {
                        pages.filter(page -> page.toString().endsWith(".md")).sorted().forEach(readmes::add);
                    }
                }
            }
        }
        return readmes;
    }

    static List<Block> blocks() throws IOException {
        List<Block> blocks = new ArrayList<>();
        for (Path readme : readmes()) {
            List<String> lines = Files.readAllLines(readme);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (!line.strip().equals("```java")) {
                    continue;
                }
                String indent = line.substring(0, line.indexOf('`'));
                String marker = i == 0 ? "" : lines.get(i - 1).strip();
                StringBuilder text = new StringBuilder();
                int start = i + 1;
                for (i = start; i < lines.size() && !lines.get(i).strip().equals("```"); i++) {
                    String content = lines.get(i);
                    text.append(content.startsWith(indent) ? content.substring(indent.length()) : content.strip()).append('\n');
                }
                blocks.add(new Block(readme, start, marker, text.toString()));
            }
        }
        return blocks;
    }
}
