package dev.synccontext.bench.capacity;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The application the capacity harness loads ({@link CapacityRun}): written as a user writes a live page on
 * the starter. Each HTTP session has a {@link Pad} ({@code @ContextScoped} state with a live channel), one
 * open tab streams it over Server-Sent Events, a click is an {@code @OnContext} handler
 * ({@link PadController}), and a ticker pushes one update per second into every live session
 * ({@link PadTicker}), as the sample's board does.
 *
 * <p>Its settings are the file {@code capacity.properties} (beside this class), read on top of Boot's
 * defaults by {@code --spring.config.name=capacity}; each setting there says which limit it lifts.
 */
@SpringBootApplication
@EnableScheduling
public class CapacityApplication {

    public static void main(String[] args) {
        SpringApplication.run(CapacityApplication.class, args);
    }
}
