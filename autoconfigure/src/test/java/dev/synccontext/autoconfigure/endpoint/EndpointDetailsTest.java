package dev.synccontext.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.autoconfigure.AllParts;
import dev.synccontext.autoconfigure.endpoint.SyncContextEndpoint.Blocked;
import dev.synccontext.autoconfigure.endpoint.SyncContextEndpoint.Overview;
import dev.synccontext.autoconfigure.endpoint.SyncContextEndpoint.QueuedContext;
import dev.synccontext.autoconfigure.endpoint.SyncContextEndpoint.ScopeDetail;
import dev.synccontext.autoconfigure.live.SyncContextLiveAutoConfiguration;
import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.live.LiveMessage;
import dev.synccontext.live.LiveTransport;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.spring.live.LiveChannels;
import java.security.Principal;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

/**
 * The endpoint's details (stacks, call sites, who holds the most) follow {@code synccontext.endpoint.show-details}
 * and {@code roles} as Boot's health endpoint does; the contexts that queue the most and the live channels that
 * buffer the most are listed largest first; a scope has its own selector.
 */
class EndpointDetailsTest {

    private static final SecurityContext ANONYMOUS = SecurityContext.NONE;
    private static final SecurityContext USER = caller(Set.of());
    private static final SecurityContext OPERATOR = caller(Set.of("OPS"));

    private final WebApplicationContextRunner runner = AllParts.servlet()
            .withConfiguration(AutoConfigurations.of(SyncContextLiveAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=synccontext",
                    "synccontext.blocked-threshold=50ms");

    @Test
    void byDefaultAnAuthenticatedCallerSeesTheDetailsAndAnAnonymousOneOnlyTheCounts() {
        runner.run(context -> withBlockedContext(context.getBean(SyncContextRegistry.class), () -> {
            SyncContextEndpoint endpoint = context.getBean(SyncContextEndpoint.class);

            Overview anonymous = endpoint.overview(ANONYMOUS);
            assertThat(anonymous.detailsShown()).as("details for an anonymous caller").isFalse();
            assertThat(anonymous.top()).as("top for an anonymous caller").isNull();
            Blocked hidden = blocked(anonymous);
            assertThat(hidden.topFrames()).as("stack shown to an anonymous caller").isEmpty();
            assertThat(hidden.callbackSite()).as("call site shown to an anonymous caller").isNull();
            assertThat(hidden.runningForMillis()).as("the blocked callback itself is still listed").isPositive();

            Overview user = endpoint.overview(USER);
            assertThat(user.detailsShown()).as("details for an authenticated caller").isTrue();
            assertThat(blocked(user).topFrames()).isNotEmpty();
            // A posted callback's site is the frame that runs it: with context propagation on, the decorator's.
            assertThat(blocked(user).callbackSite()).as("call site for an authenticated caller").isNotBlank();
            assertThat(user.top().queuedCallbacks()).as("contexts by queued callbacks")
                    .startsWith(new QueuedContext("slow-board", "keyed", 3));
        }));
    }

    @Test
    void withRolesOnlyACallerInOneOfThemSeesTheDetails() {
        runner.withPropertyValues("synccontext.endpoint.roles=OPS").run(context -> {
            SyncContextEndpoint endpoint = context.getBean(SyncContextEndpoint.class);
            assertThat(endpoint.overview(USER).detailsShown()).as("authenticated, not in role OPS").isFalse();
            assertThat(endpoint.overview(OPERATOR).detailsShown()).as("in role OPS").isTrue();
        });
    }

    @Test
    void neverHidesTheDetailsFromEveryoneAndAlwaysShowsThemToAnyone() {
        runner.withPropertyValues("synccontext.endpoint.show-details=never").run(context -> assertThat(
                context.getBean(SyncContextEndpoint.class).overview(OPERATOR).detailsShown()).isFalse());
        runner.withPropertyValues("synccontext.endpoint.show-details=always").run(context -> assertThat(
                context.getBean(SyncContextEndpoint.class).overview(ANONYMOUS).detailsShown()).isTrue());
    }

    @Test
    void aScopeSelectorShowsThatScopeAndAnUnknownScopeIsAbsent() {
        runner.run(context -> withBlockedContext(context.getBean(SyncContextRegistry.class), () -> {
            SyncContextEndpoint endpoint = context.getBean(SyncContextEndpoint.class);
            ScopeDetail keyed = endpoint.scope("keyed", USER);
            assertThat(keyed).isNotNull();
            assertThat(keyed.figures().contexts()).isEqualTo(1);
            assertThat(keyed.figures().queueDepth()).isEqualTo(3);
            assertThat(keyed.blocked()).extracting(Blocked::context).containsExactly("slow-board");
            assertThat(keyed.topQueued()).containsExactly(new QueuedContext("slow-board", "keyed", 3));
            assertThat(endpoint.scope("keyed", ANONYMOUS).topQueued()).as("top for an anonymous caller").isNull();
            assertThat(endpoint.scope("no-such-scope", USER)).as("unknown scope (the actuator answers 404)").isNull();
        }));
    }

    @Test
    void topListsAtMostTheConfiguredNumberOfContextsLargestQueueFirst() {
        runner.withPropertyValues("synccontext.endpoint.top=2").run(context -> {
            SyncContextRegistry registry = context.getBean(SyncContextRegistry.class);
            CountDownLatch release = new CountDownLatch(1);
            try {
                for (int i = 1; i <= 3; i++) {
                    RendererSyncContext busy = registry.forKey("busy-" + i);
                    busy.post(() -> awaitQuietly(release)); // holds the context; what follows queues behind it
                    for (int queued = 0; queued < i; queued++) {
                        busy.post(() -> { });
                    }
                }
                awaitCondition(() -> registry.contexts().stream().mapToInt(RendererSyncContext::queueDepth).sum() == 6,
                        "six callbacks queued behind the three holders");
                assertThat(context.getBean(SyncContextEndpoint.class).overview(USER).top().queuedCallbacks())
                        .containsExactly(new QueuedContext("busy-3", "keyed", 3), new QueuedContext("busy-2", "keyed", 2));
            } finally {
                release.countDown();
            }
        });
    }

    @Test
    void liveChannelsAreListedByMessagesBufferedForTheirSubscribers() {
        runner.run(context -> {
            LiveChannel quiet = context.getBean(LiveChannels.class).open("quiet-board", () -> "snapshot");
            LiveChannel stuck = context.getBean(LiveChannels.class).open("stuck-board", () -> "snapshot");
            try {
                quiet.subscribe(new NeverReady());
                stuck.subscribe(new NeverReady());
                for (int i = 0; i < 5; i++) {
                    stuck.publish("change", "change " + i);
                }
                long expected = stuck.subscribers().get(0).buffered();
                assertThat(expected).as("messages buffered for a client that never reads").isGreaterThanOrEqualTo(5);
                assertThat(context.getBean(SyncContextEndpoint.class).overview(USER).top().liveBuffered())
                        .first().satisfies(top -> {
                            assertThat(top.channel()).isEqualTo("stuck-board");
                            assertThat(top.subscribers()).isEqualTo(1);
                            assertThat(top.bufferedMessages()).isEqualTo(expected);
                        });
            } finally {
                quiet.close();
                stuck.close();
            }
        });
    }

    /** Runs {@code check} while context "slow-board" runs a blocked callback with three callbacks queued behind it. */
    private static void withBlockedContext(SyncContextRegistry registry, Runnable check) {
        RendererSyncContext slow = registry.forKey("slow-board");
        CountDownLatch release = new CountDownLatch(1);
        try {
            slow.post(() -> awaitQuietly(release));
            for (int i = 0; i < 3; i++) {
                slow.post(() -> { });
            }
            awaitCondition(() -> RendererSyncContext.blockedCallbacks().stream()
                    .anyMatch(b -> b.contextName().equals("slow-board")) && slow.queueDepth() == 3,
                    "slow-board's callback reported blocked with three queued behind it");
            check.run();
        } finally {
            release.countDown();
        }
    }

    private static Blocked blocked(Overview overview) {
        return overview.blocked().stream().filter(b -> b.context().equals("slow-board")).findFirst()
                .orElseThrow(() -> new AssertionError("slow-board not listed as blocked: " + overview.blocked()));
    }

    private static SecurityContext caller(Set<String> roles) {
        Principal principal = () -> "someone";
        return new SecurityContext() {
            @Override
            public Principal getPrincipal() {
                return principal;
            }

            @Override
            public boolean isUserInRole(String role) {
                return roles.contains(role);
            }
        };
    }

    private static void awaitCondition(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)); // poll interval, bounded by the deadline
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A client that never reads: everything published for it stays buffered. */
    private static final class NeverReady implements LiveTransport {

        @Override
        public boolean ready() {
            return false;
        }

        @Override
        public boolean write(LiveMessage message) {
            throw new AssertionError("write without ready");
        }

        @Override
        public void close(CloseReason reason) {
        }
    }
}
