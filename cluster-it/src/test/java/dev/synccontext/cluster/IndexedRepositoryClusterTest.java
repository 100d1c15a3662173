package dev.synccontext.cluster;

import java.util.Map;

/**
 * Spring Session's indexed Redis repository: it publishes {@code SessionDeletedEvent} and
 * {@code SessionExpiredEvent} on every node (Redis keyspace notifications), which Spring Session
 * forwards to the starter's session listener, so contexts close on every node as soon as their session
 * ends. Idle eviction is set to an hour here, so any close seen in these tests came from an event.
 */
class IndexedRepositoryClusterTest extends TwoNodeClusterTest {

    IndexedRepositoryClusterTest() {
        super("indexed", Map.of("synccontext.session.idle-timeout", "1h",
                // Spring Session also sweeps expired sessions itself once a minute by default; every second
                // here, so expiries that Redis reports late still end within the test.
                "spring.session.data.redis.cleanup-cron", "* * * * * *"), true);
    }
}
