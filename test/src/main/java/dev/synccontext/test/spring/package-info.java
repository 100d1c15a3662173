/**
 * The test kit in a Spring Boot test: {@link dev.synccontext.test.spring.AutoConfigureSyncContextTest} makes the
 * application's registry, every context it builds, the session idle eviction and the shutdown timeout
 * run on one {@link dev.synccontext.test.SyncContextTestKit} (its executor and virtual clock), and checks
 * after each test method that nothing was left queued or unobserved.
 */
@NullMarked
package dev.synccontext.test.spring;

import org.jspecify.annotations.NullMarked;
