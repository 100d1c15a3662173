package dev.synccontext.stress;

import dev.synccontext.testing.PooledTest;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * What every fault-injection test shares: a two-thread pool watched for {@link #HANG_GUARD}, and a class-wide
 * hang guard so a deadlocked proof fails instead of stalling the build.
 */
// Hang guard only, never a speed bound.
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
abstract class FaultInjectionTest extends PooledTest {

    static final Duration HANG_GUARD = Duration.ofSeconds(30);

    FaultInjectionTest() {
        super(2, HANG_GUARD);
    }
}
