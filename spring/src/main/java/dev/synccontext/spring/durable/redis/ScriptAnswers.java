package dev.synccontext.spring.durable.redis;

import dev.synccontext.spring.durable.NodeLease;
import dev.synccontext.spring.durable.Ownership;
import dev.synccontext.spring.durable.StoredSnapshot;
import dev.synccontext.spring.durable.WriteOutcome;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** The scripts' replies as the contract's types; a reply of any other shape is a bug or a foreign key, and says so. */
final class ScriptAnswers {

    private ScriptAnswers() {
    }

    static Ownership ownership(@Nullable List<?> answer, NodeLease lease, String handle) {
        if (answer != null && !answer.isEmpty() && answer.get(0) instanceof Long code) {
            if (code == -1 && answer.size() == 1) {
                return new Ownership.LeaseLost(lease);
            }
            if (code == 1 && answer.size() == 3 && answer.get(1) instanceof Long token
                    && answer.get(2) instanceof Long previous) {
                return new Ownership.Acquired(token, previous);
            }
            if (code == 0 && answer.size() == 3 && answer.get(1) instanceof Long token
                    && answer.get(2) instanceof String owner) {
                return new Ownership.OwnedElsewhere(owner, token);
            }
        }
        throw unexpected("acquire", handle, answer);
    }

    static WriteOutcome writeOutcome(long answer, String handle) {
        if (answer == 1) {
            return WriteOutcome.ACCEPTED;
        }
        if (answer == -1) {
            return WriteOutcome.STALE;
        }
        if (answer == -2) {
            return WriteOutcome.NOT_OWNED;
        }
        if (answer == -3) {
            return WriteOutcome.LEASE_EXPIRED;
        }
        throw unexpected("write", handle, answer);
    }

    /** {@code fields}: the session hash's {@code dataToken} and {@code data}, as bytes or null. */
    static Optional<StoredSnapshot> snapshot(@Nullable List<?> fields, String handle) {
        if (fields == null || fields.size() != 2) {
            throw unexpected("read", handle, fields);
        }
        if (fields.get(1) == null) {
            return Optional.empty();
        }
        if (fields.get(0) instanceof byte[] token && fields.get(1) instanceof byte[] data) {
            try {
                return Optional.of(new StoredSnapshot(Long.parseLong(new String(token, StandardCharsets.US_ASCII)),
                        data));
            } catch (NumberFormatException e) {
                throw unexpected("read", handle, "dataToken " + new String(token, StandardCharsets.US_ASCII));
            }
        }
        throw unexpected("read", handle, fields);
    }

    private static IllegalStateException unexpected(String step, String handle, @Nullable Object answer) {
        return new IllegalStateException("Redis answered " + answer + " to the synccontext " + step
                + " of session '" + handle + "': not what the store writes; is another program writing under this"
                + " key prefix? Give each application its own prefix");
    }
}
