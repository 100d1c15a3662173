package dev.synccontext.sample;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Import;

/**
 * The whole sample on a random port, driven over real HTTP. Every test class uses exactly these
 * settings, so they share one running application (Spring's test context cache). A test method's
 * {@link BoardClient} parameters are visitors on that port, each its own session ({@link BoardClients}). The
 * quote backend is the sample's own, which a test can hold back ({@link HeldQuoteBackend}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "sample.tick-interval=250ms",
        "sample.quote-latency=300ms",
        "sample.max-items=5",
        "sample.faults.enabled=true",
        "sample.faults.block-for=600ms",
        "synccontext.blocked-threshold=200ms",
})
@Import(HeldQuoteBackend.Configuration.class)
@ExtendWith(BoardClients.class)
@interface SampleServerTest {
}
