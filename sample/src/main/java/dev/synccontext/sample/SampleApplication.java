package dev.synccontext.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * A live "board" per HTTP session. Every change to a session's board — a click, a form post, a
 * clock tick from a background scheduler, the answer of a slow backend — runs on that session's own
 * {@link dev.synccontext.RendererSyncContext}, so the board is plain fields with no locks, several
 * tabs of the session see the same board over Server-Sent Events, and another session is untouched.
 */
@SpringBootApplication
@EnableScheduling
@ConfigurationPropertiesScan
public class SampleApplication {

    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }
}
