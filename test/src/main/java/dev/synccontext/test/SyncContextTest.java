package dev.synccontext.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class or method that gets its own {@link SyncContextTestKit} per test (a parameter of that
 * type, in the test method or a lifecycle method), checked with {@link SyncContextTestKit#verify()}
 * after the test: a test that leaves callbacks queued or a failure unobserved fails, naming where each
 * was submitted. Safe under JUnit's parallel execution (a kit per test, no shared state).
 *
 * <pre>{@code
 * @SyncContextTest
 * class DebounceTest {
 *     @Test
 *     void firesThirtySecondsAfterTheLastChange(SyncContextTestKit kit) { ... kit.advanceBy(...) ... }
 * }
 * }</pre>
 */
@Target({ ElementType.TYPE, ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(SyncContextExtension.class)
public @interface SyncContextTest {

    /** {@link #seed()}'s value for "no seed": FIFO order, or a fresh seed when {@link #explore()}. */
    long NO_SEED = Long.MIN_VALUE;

    /**
     * Whether the kit runs queued work in a seeded random order ({@link SyncContextTestKit#exploring}).
     * The seed is printed when the test fails.
     */
    boolean explore() default false;

    /** The seed of an exploring kit (implies {@link #explore()}): replays a failure's printed seed. */
    long seed() default NO_SEED;

    /** Whether the test fails when it leaves callbacks queued or failures unobserved. */
    boolean verify() default true;
}
