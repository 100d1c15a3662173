package dev.synccontext.sample;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * The sample as deployed (default tick, default limits, faults off) on a random port, for the soak
 * and the fuzzer. Two settings differ, both to keep CI time bounded: a 50 ms quote backend and a 1 s
 * {@code synccontext.benchmark.max-duration}. The soak and the fuzzer share this one application.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "sample.quote-latency=50ms",
        "synccontext.benchmark.max-duration=1s",
})
@ExtendWith(BoardClients.class)
@interface ReliabilityServerTest {

    /** {@code synccontext.benchmark.max-duration} above, in milliseconds. */
    long BENCHMARK_MAX_DURATION_MILLIS = 1_000;
}
