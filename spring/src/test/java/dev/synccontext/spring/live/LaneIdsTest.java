package dev.synccontext.spring.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The event id of a stream of lanes: what it parses, what it skips, which names it refuses. */
class LaneIdsTest {

    @Test
    void anIdParsesIntoEachLanesPositionAndFormatsBack() {
        Map<String, String> positions = LaneIds.parse("me=abc-12;room:42=def-40");
        assertThat(positions).containsExactly(Map.entry("me", "abc-12"), Map.entry("room:42", "def-40"));
        assertThat(LaneIds.format(positions)).isEqualTo("me=abc-12;room:42=def-40");
    }

    @Test
    void aMalformedIdNeverThrowsAndKeepsOnlyWellFormedParts() {
        assertThat(LaneIds.parse(null)).isEmpty();
        assertThat(LaneIds.parse("")).isEmpty();
        assertThat(LaneIds.parse("abc-12")).as("a single channel's id").isEmpty();
        assertThat(LaneIds.parse("=x;me=;;me")).isEmpty();
        assertThat(LaneIds.parse("me=a-1;me=b-2")).as("the first of a name given twice").containsExactly(
                Map.entry("me", "a-1"));
    }

    @Test
    void aNameThatCannotBeAKeyIsRefusedNamingTheCharacter() {
        for (String bad : List.of("", "a;b", "a=b", "a b", "a\nb")) {
            assertThatIllegalArgumentException().isThrownBy(() -> LaneIds.checkName(bad)).withMessageContaining("lane");
        }
        LaneIds.checkName("room:42");
        assertThatIllegalArgumentException().isThrownBy(() -> LaneIds.checkNames(List.of("me", "me")))
                .withMessageContaining("'me'");
        assertThatIllegalArgumentException().isThrownBy(() -> LaneIds.checkNames(List.of()));
        assertThat(LaneIds.format(new LinkedHashMap<>())).isEmpty();
    }
}
