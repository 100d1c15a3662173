package dev.synccontext.bench.http;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.servlet.ServletListenerRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.web.util.HttpSessionMutexListener;

/**
 * A plain application on the starter for {@code bench/http.sh}: one per-session counter, incremented
 * through the session's injected context, under the session mutex, or with no serialization at all
 * ({@link CounterController}).
 */
@SpringBootApplication
public class CounterApplication {

    public static void main(String[] args) {
        SpringApplication.run(CounterApplication.class, args);
    }

    /** What Spring MVC's {@code synchronizeOnSession} relies on: one stable mutex object per session. */
    @Bean
    ServletListenerRegistrationBean<HttpSessionMutexListener> sessionMutexListener() {
        return new ServletListenerRegistrationBean<>(new HttpSessionMutexListener());
    }
}
