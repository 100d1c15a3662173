package dev.synccontext.autoconfigure.durable;

import dev.synccontext.spring.durable.session.Durable;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.scope.ContextScoped;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.session.MapSessionRepository;
import org.springframework.session.web.http.SessionRepositoryFilter;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The application {@link DurableNodes} starts: a durable counter and note, a node-local counter (the premise
 * that without {@code @Durable} state stays on its node), and {@code @OnContext} handlers over them. The store
 * and the session repository are the singletons {@code DurableNodes} registers before the refresh.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({ DurableApp.CounterController.class, DurableApp.Counter.class, DurableApp.Note.class,
        DurableApp.PlainCounter.class })
class DurableApp {

    @Bean
    SessionRepositoryFilter<?> springSessionRepositoryFilter(MapSessionRepository sharedSessions) {
        return new SessionRepositoryFilter<>(sharedSessions);
    }

    /** Kept in the store. */
    @ContextScoped
    @Durable(name = "counter")
    public static class Counter {
        private int count;

        public int getCount() {
            return count;
        }

        public void setCount(int count) {
            this.count = count;
        }

        public int increment() {
            return ++count;
        }
    }

    /** Kept in the store; grows as asked, to go over a size budget. */
    @ContextScoped
    @Durable(name = "note")
    public static class Note {
        private String text = "";

        public String getText() {
            return text;
        }

        public void setText(String text) {
            this.text = text;
        }

        public int add(String more) {
            text = text + more;
            return text.length();
        }
    }

    /** Node-local: the premise. */
    @ContextScoped
    public static class PlainCounter {
        private int count;

        public int increment() {
            return ++count;
        }
    }

    @RestController
    record CounterController(Counter counter, Note note, PlainCounter plainCounter) {

        @OnContext
        @PostMapping("/counter")
        int increment() {
            return counter.increment();
        }

        @OnContext
        @GetMapping("/counter")
        int read() {
            return counter.getCount();
        }

        @OnContext
        @PostMapping("/plain")
        int plain() {
            return plainCounter.increment();
        }

        @OnContext
        @PostMapping("/note")
        int note(@RequestParam String add) {
            return note.add(add);
        }
    }
}
