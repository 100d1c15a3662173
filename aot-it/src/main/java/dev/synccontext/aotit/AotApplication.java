package dev.synccontext.aotit;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The application {@code AheadOfTimeApplicationTest} runs: AOT-processed at build time, started with
 * {@code -Dspring.aot.enabled=true}. One {@code @ContextScoped} bean ({@link Tally}) reached through
 * {@code @OnContext} MVC handlers ({@link TallyController}).
 */
@SpringBootApplication
public class AotApplication {

    public static void main(String[] args) {
        SpringApplication.run(AotApplication.class, args);
    }
}
