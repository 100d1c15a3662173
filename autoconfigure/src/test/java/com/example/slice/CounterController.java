package com.example.slice;

import dev.synccontext.spring.handler.OnContext;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@OnContext // the body runs on the session's context: inline when it is idle, queued when it is busy
public class CounterController {

    private final Counter counter;

    public CounterController(Counter counter) {
        this.counter = counter;
    }

    @PostMapping("/counter/increment")
    public int increment() {
        return counter.increment();
    }
}
