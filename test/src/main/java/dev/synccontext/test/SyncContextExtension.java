package dev.synccontext.test;

import java.lang.reflect.AnnotatedElement;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit 5 side of {@link SyncContextTest}: a {@link SyncContextTestKit} per test, kept in that test's
 * own extension store (so parallel tests never share one), resolved as a parameter, verified after the
 * test; the seed of an exploring kit is printed and attached to a failure.
 */
public final class SyncContextExtension implements ParameterResolver, AfterEachCallback,
        TestExecutionExceptionHandler {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SyncContextExtension.class);
    private static final String KIT = "kit";

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == SyncContextTestKit.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return kit(context);
    }

    /** The test's kit, made on first use (test methods share it with their {@code @BeforeEach} methods). */
    @SuppressWarnings("deprecation") // computeIfAbsent(key, fn, type) is Jupiter 6 only; this runs on 5.x too
    public static SyncContextTestKit kit(ExtensionContext context) {
        return Objects.requireNonNull(context.getStore(NAMESPACE).getOrComputeIfAbsent(KIT,
                key -> newKit(settings(context)), SyncContextTestKit.class), "kit");
    }

    @Override
    public void afterEach(ExtensionContext context) {
        SyncContextTestKit kit = context.getStore(NAMESPACE).get(KIT, SyncContextTestKit.class);
        if (kit != null && settings(context).verify()) {
            kit.verify();
        }
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        SyncContextTestKit kit = context.getStore(NAMESPACE).get(KIT, SyncContextTestKit.class);
        if (kit != null && kit.seed().isPresent()) {
            long seed = kit.seed().getAsLong();
            String note = context.getDisplayName() + " failed with interleaving seed " + seed
                    + "; replay it with @SyncContextTest(seed = " + seed + "L)";
            System.err.println(note);
            failure.addSuppressed(new SeedNote(note));
        }
        throw failure;
    }

    private static SyncContextTestKit newKit(SyncContextTest settings) {
        if (settings.seed() != SyncContextTest.NO_SEED) {
            return SyncContextTestKit.exploring(settings.seed());
        }
        return settings.explore() ? SyncContextTestKit.exploring(ThreadLocalRandom.current().nextLong())
                : SyncContextTestKit.create();
    }

    /** The nearest {@link SyncContextTest}: the method's, else its class's (or an enclosing class's). */
    private static SyncContextTest settings(ExtensionContext context) {
        for (Optional<ExtensionContext> at = Optional.of(context); at.isPresent(); at = at.get().getParent()) {
            Optional<AnnotatedElement> element = at.get().getElement();
            if (element.isPresent()) {
                Optional<SyncContextTest> found = AnnotationSupport.findAnnotation(element.get(), SyncContextTest.class);
                if (found.isPresent()) {
                    return found.get();
                }
            }
        }
        return Objects.requireNonNull(Defaults.class.getAnnotation(SyncContextTest.class), "defaults");
    }

    /** Carries the defaults for a test that registered the extension with {@code @ExtendWith} alone. */
    @SyncContextTest
    private static final class Defaults {
    }

    /** Attached to a failing test's exception: the seed that replays it. */
    static final class SeedNote extends RuntimeException {

        private static final long serialVersionUID = 1L;

        SeedNote(String message) {
            super(message, null, false, false);
        }
    }
}
