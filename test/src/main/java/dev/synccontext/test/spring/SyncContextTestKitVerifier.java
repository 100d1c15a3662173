package dev.synccontext.test.spring;

import dev.synccontext.test.SyncContextTestKit;
import org.springframework.context.ApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestExecutionListener;

/**
 * Verifies the application's {@link SyncContextTestKit} after each test method of a Spring test whose
 * application context has one (registered in {@code META-INF/spring.factories}; tests without the kit
 * pay one bean lookup). A leak fails the test method that left it, and dirties the application context so
 * that the leak stays that test's: the next test gets a fresh context and kit.
 */
public final class SyncContextTestKitVerifier implements TestExecutionListener, Ordered {

    @Override
    public void afterTestMethod(TestContext testContext) {
        if (!testContext.hasApplicationContext()) {
            return;
        }
        ApplicationContext context = testContext.getApplicationContext();
        if (context.getBeanNamesForType(SyncContextTestKit.class, false, false).length == 1) {
            try {
                context.getBean(SyncContextTestKit.class).verify();
            } catch (AssertionError leftBehind) {
                // The leak belongs to this test: the next test gets a fresh application context and kit
                // instead of inheriting it (closing this one runs what was left, on virtual time).
                testContext.markApplicationContextDirty(DirtiesContext.HierarchyMode.EXHAUSTIVE);
                throw leftBehind;
            }
        }
    }

    /** Early among the after-method listeners, before a dirtied context is closed. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE - 100;
    }
}
