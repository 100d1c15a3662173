package com.example.fluxslice;

import dev.synccontext.spring.handler.OnContext;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

@RestController
@OnContext // the body runs on the WebSession's context when WebFlux subscribes
public class TallyController {

    private final Tally tally;

    public TallyController(Tally tally) {
        this.tally = tally;
    }

    @PostMapping("/tally/increment")
    public Mono<Integer> increment() {
        return Mono.just(tally.increment()); // the body, not the Mono's subscriber, runs on the context
    }
}
