package dev.synccontext.spring.durable.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.spring.durable.NodeLease;
import dev.synccontext.spring.durable.Ownership;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What keeping a node's sessions costs Redis: renewals are one command per node per period whatever the number
 * of sessions owned, measured with {@code INFO commandstats} and the server's byte counters for 10 and 10,000
 * sessions (request bytes from {@code INFO stats}). The figures are printed; the assertion is on commands, which do not vary with the machine.
 */
@Tag("process")
class NodeLeaseTrafficTest {

    private static final int RENEWALS = 100;
    private static final Pattern CALLS = Pattern.compile("cmdstat_(\\w+):calls=(\\d+)");

    @RegisterExtension
    static final RedisStoreExtension REDIS = new RedisStoreExtension();

    @Test
    void renewingANodesLeaseCostsOneCommandPerPeriodWhateverTheNumberOfSessions() {
        NodeLease lease = REDIS.store.acquireNodeLease("node-1", Duration.ofSeconds(30)).orElseThrow();
        Traffic few = renewalsWith(lease, 10);
        Traffic many = renewalsWith(lease, 10_000);
        System.out.printf("Renewing one node's lease %d times, owning 10 sessions: %s; owning 10,000: %s%n",
                RENEWALS, few, many);
        System.out.printf("Per renewal period and node, 10,000 sessions owned: %.1f round trip (EVALSHA; Redis runs"
                + " %.1f commands in all), %.0f request bytes (the reply is :1, 4 bytes); %.0f bytes of Redis memory per owned"
                + " session (no snapshot)%n", (double) many.calls().get("evalsha") / RENEWALS,
                (double) many.commands() / RENEWALS, (double) many.bytesIn() / RENEWALS, many.memoryPerSession());
        assertThat(many.calls().get("evalsha")).as("round trips for %d renewals, 10,000 sessions owned", RENEWALS)
                .isEqualTo((long) RENEWALS);
        assertThat(many.commands()).as("commands Redis ran for them (the script's GET and PEXPIRE included)")
                .isEqualTo(3L * RENEWALS);
        assertThat(many.calls()).as("the same as with 10 sessions").isEqualTo(few.calls());
        assertThat(many.bytesIn()).as("request bytes, the same as with 10 sessions").isEqualTo(few.bytesIn());
    }

    /** Owns {@code sessions} sessions in all, then measures {@link #RENEWALS} renewals alone. */
    private Traffic renewalsWith(NodeLease lease, int sessions) {
        long memoryBefore = stat("memory", "used_memory");
        int owned = REDIS.redis.raw().keys("synccontext:session:*").size();
        for (int i = owned; i < sessions; i++) {
            assertThat(REDIS.store.acquire("session-" + i, lease, Duration.ofMinutes(30)))
                    .isInstanceOf(Ownership.Acquired.class);
        }
        double memoryPerSession = sessions == owned ? 0
                : (double) (stat("memory", "used_memory") - memoryBefore) / (sessions - owned);
        assertThat(REDIS.store.renewNodeLease(lease)).isTrue(); // the script is loaded: EVALSHA from here on
        long inIdle = stat("stats", "total_net_input_bytes");
        long idleIn = stat("stats", "total_net_input_bytes") - inIdle; // what an INFO request adds, to subtract
        REDIS.redis.raw().configResetstat();
        long in = stat("stats", "total_net_input_bytes");
        for (int i = 0; i < RENEWALS; i++) {
            assertThat(REDIS.store.renewNodeLease(lease)).isTrue();
        }
        long bytesIn = stat("stats", "total_net_input_bytes") - in - idleIn;
        Map<String, Long> calls = new TreeMap<>();
        Matcher matcher = CALLS.matcher(REDIS.redis.raw().info("commandstats"));
        while (matcher.find()) {
            calls.put(matcher.group(1), Long.parseLong(matcher.group(2)));
        }
        calls.keySet().removeAll(Set.of("info", "config")); // the test's own measuring
        return new Traffic(calls, bytesIn, memoryPerSession);
    }

    private static long stat(String section, String field) {
        Matcher matcher = Pattern.compile("(?m)^" + field + ":(\\d+)").matcher(REDIS.redis.raw().info(section));
        assertThat(matcher.find()).as("INFO %s has %s", section, field).isTrue();
        return Long.parseLong(matcher.group(1));
    }

    record Traffic(Map<String, Long> calls, long bytesIn, double memoryPerSession) {

        long commands() {
            return calls.values().stream().mapToLong(Long::longValue).sum();
        }

        @Override
        public String toString() {
            return calls + ", " + bytesIn + " request bytes";
        }
    }
}
