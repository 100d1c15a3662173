package dev.synccontext.bench.capacity;

import java.util.concurrent.ThreadLocalRandom;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/** Once per {@code capacity.tick-interval} (default one second) posts a tick into every live session's context. */
@Component
final class PadTicker {

    private final LivePads livePads;
    private long sequence;
    private long price = 10_000;

    PadTicker(LivePads livePads) {
        this.livePads = livePads;
    }

    @Scheduled(fixedRateString = "${capacity.tick-interval:1s}")
    void tick() {
        sequence++;
        price += ThreadLocalRandom.current().nextInt(-20, 21);
        for (Pad pad : livePads.all()) {
            if (!pad.postTick(sequence, price)) {
                livePads.remove(pad);
            }
        }
    }
}
