package dev.synccontext.spring.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SseFramesTest {

    /** The expected frames are what the pattern split {@code "\r\n|\r|\n"} with limit -1 gave before the scan. */
    static Stream<Arguments> data() {
        return Stream.of(
                arguments("", "data:\n"),
                arguments("a", "data:a\n"),
                arguments("a\nb", "data:a\ndata:b\n"),
                arguments("a\r\nb", "data:a\ndata:b\n"),
                arguments("a\rb", "data:a\ndata:b\n"),
                arguments("a\r\rb", "data:a\ndata:\ndata:b\n"),
                arguments("a\n\r\nb", "data:a\ndata:\ndata:b\n"),
                arguments("a\n", "data:a\ndata:\n"),
                arguments("a\r", "data:a\ndata:\n"),
                arguments("\r\n", "data:\ndata:\n"),
                arguments("\u00e9\n\u00fc", "data:\u00e9\ndata:\u00fc\n"));
    }

    @ParameterizedTest
    @MethodSource("data")
    void splitsTheDataOnEveryLineEndAsThePatternDid(String data, String lines) {
        String expected = "id:7\nevent:e\n" + lines + "\n";

        assertThat(new String(SseFrames.frame("7", "e", data), StandardCharsets.UTF_8)).isEqualTo(expected);
        assertThat(legacy("7", "e", data)).isEqualTo(expected);
    }

    @ParameterizedTest
    @MethodSource("data")
    void omitsTheIdLineWithoutAnId(String data, String lines) {
        assertThat(new String(SseFrames.frame(null, "e", data), StandardCharsets.UTF_8))
                .isEqualTo("event:e\n" + lines + "\n")
                .isEqualTo(legacy(null, "e", data));
    }

    private static String legacy(@Nullable String id, String event, String data) {
        StringBuilder frame = new StringBuilder();
        if (id != null) {
            frame.append("id:").append(id).append('\n');
        }
        frame.append("event:").append(event).append('\n');
        for (String line : data.split("\r\n|\r|\n", -1)) {
            frame.append("data:").append(line).append('\n');
        }
        return frame.append('\n').toString();
    }
}
