package dev.synccontext.test.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

/**
 * Runs the application's contexts on a {@link dev.synccontext.test.SyncContextTestKit} in a Spring Boot
 * test ({@code @SpringBootTest}, or a test slice): the kit is a bean to inject; the registry, every context
 * it builds (session, request, WebSocket, keyed), the session idle eviction and the shutdown timeout use
 * the kit's executor and virtual clock; queued callbacks record where they were submitted, and the
 * contexts' unhandled failures go to the kit. After each test method the kit is
 * {@linkplain dev.synccontext.test.SyncContextTestKit#verify() verified}.
 *
 * <p>A test that wants an exploring kit declares its own {@code SyncContextTestKit} bean. The kit belongs
 * to the application context, which Spring's test context cache shares between test classes with the
 * same configuration: give a test class that moves time its own configuration (a property of its own),
 * or mind that time carries over.
 *
 * <p>Imports the auto-configurations listed in
 * {@code META-INF/spring/dev.synccontext.test.spring.AutoConfigureSyncContextTest.imports}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
public @interface AutoConfigureSyncContextTest {
}
