package dev.synccontext.aotit;

import dev.synccontext.spring.handler.OnContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** The session's {@link Tally}, touched only on the session's context. */
@RestController
public class TallyController {

    private final Tally tally;

    public TallyController(Tally tally) {
        this.tally = tally;
    }

    @OnContext
    @PostMapping("/tally/increment")
    public int increment() {
        return tally.increment();
    }

    @OnContext
    @GetMapping("/tally")
    public int count() {
        return tally.count();
    }

    /** The class of the injected proxy, for the test to see which proxy it is. */
    @GetMapping("/tally/proxy-class")
    public String proxyClass() {
        return tally.getClass().getName();
    }
}
