package dev.synccontext.starter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.ChildJvm;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * After a restart (a DevTools restart, a redeploy next to a shared library), nothing of the library holds
 * the first application: {@link RestartProbe} starts an application twice in one fresh JVM, each time
 * from its own class loader, with queued work on the registry's contexts; then no live thread has the
 * first application's loader as its context class loader, and that loader is collected.
 *
 * <p>A fresh child JVM, because the library's threads are made once per JVM: in this test's own JVM
 * earlier tests would have made them, and the case that pinned a loader (threads made while the
 * application's code is on the stack and its loader is the context class loader) would not happen. The
 * child runs with {@code -XX:SoftRefLRUPolicyMSPerMB=0}, so that Spring's soft caches (reflection,
 * annotations, factories per class loader) are cleared at each collection instead of only before an
 * {@link OutOfMemoryError}, and without Spring Boot's background pre-initializer thread, which inherits
 * the loader and may still be running; what is left is what really holds the loader.
 *
 * <p>In the fast tier although it starts a JVM (about 9 s): what holds a loader differs by JDK (the
 * inherited access-control context up to Java 23), so it runs on Java 17 and again on Java 25.
 */
class RestartLeavesNoLoaderBehindTest {

    @Test
    void noThreadKeepsTheFirstApplicationsLoaderAndTheLoaderIsCollectedAfterARestart() throws Exception {
        List<String> lines = ChildJvm.run(Duration.ofSeconds(120), "-XX:SoftRefLRUPolicyMSPerMB=0",
                "-Dspring.backgroundpreinitializer.ignore=true", RestartProbe.class.getName());
        System.out.println(String.join(System.lineSeparator(), lines));

        assertThat(lines).as("child output").anyMatch(l -> l.startsWith("RAN 1 "))
                .anyMatch(l -> l.startsWith("RAN 2 "));
        assertThat(lines).as("threads whose context class loader is the first application's")
                .noneMatch(l -> l.startsWith("THREAD_WITH_FIRST_LOADER"));
        assertThat(lines).as("the first application's loader, after a bounded number of System.gc() calls")
                .anyMatch(l -> l.startsWith("FIRST_LOADER_COLLECTED"));
    }
}
