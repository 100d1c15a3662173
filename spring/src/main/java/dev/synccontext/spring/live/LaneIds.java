package dev.synccontext.spring.live;

import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The event id of a stream that carries several lanes: each lane's position (its channel's own id,
 * {@code epoch-sequence}) under its name, {@code name=epoch-sequence} joined by {@code ;}. A browser sends the last
 * one back as {@code Last-Event-ID}; each lane resumes from its own part.
 */
final class LaneIds {

    private LaneIds() {
    }

    /**
     * @throws IllegalArgumentException a name that cannot be a lane's: blank, or with {@code ;}, {@code =}, white
     *     space or a control character
     */
    static void checkName(String name) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("A live lane's name must not be empty: it is the SSE event name of"
                    + " its events and its key in the event id.");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == ';' || c == '=' || Character.isWhitespace(c) || Character.isISOControl(c)) {
                throw new IllegalArgumentException("Live lane name '" + name + "' holds '" + c + "' (index " + i
                        + "): a lane's name is its key in the event id (name=epoch-sequence;...), so it must hold no"
                        + " ';', '=', white space or control character. Use a name such as 'me' or 'room:42'.");
            }
        }
    }

    /** @throws IllegalArgumentException no lane, or two with one name */
    static void checkNames(Collection<String> names) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("An event stream of live lanes needs at least one lane.");
        }
        Set<String> seen = new HashSet<>();
        for (String name : names) {
            if (!seen.add(name)) {
                throw new IllegalArgumentException("Two live lanes are named '" + name + "' on one event stream:"
                        + " each lane's name is its key in the event id, so the names must differ.");
            }
        }
    }

    /**
     * The position of each lane in a {@code Last-Event-ID}; never throws. A part that is not {@code name=id} (an id
     * of a single-channel stream, garbage) is skipped, and so is a name given twice after its first; a lane with no
     * part gets a snapshot.
     */
    static Map<String, String> parse(@Nullable String lastEventId) {
        Map<String, String> positions = new LinkedHashMap<>();
        if (lastEventId == null) {
            return positions;
        }
        for (String part : lastEventId.split(";", -1)) {
            int assign = part.indexOf('=');
            if (assign > 0 && assign < part.length() - 1) {
                positions.putIfAbsent(part.substring(0, assign), part.substring(assign + 1));
            }
        }
        return positions;
    }

    /** {@code name=id;name=id} in the map's order. */
    static String format(Map<String, String> positions) {
        StringBuilder id = new StringBuilder();
        for (Map.Entry<String, String> position : positions.entrySet()) {
            if (!id.isEmpty()) {
                id.append(';');
            }
            id.append(position.getKey()).append('=').append(position.getValue());
        }
        return id.toString();
    }
}
