package dev.synccontext.sample;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.util.Random;

import dev.synccontext.sample.BoardSnapshot.Tick;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Once per {@code sample.tick-interval} (default one second) moves a simulated index price and posts
 * the tick into every live session's context. The ticker never touches a board itself: it only queues
 * work, so a board sees ticks between clicks, never during one.
 *
 * <p>The price walk is the ticker's own state; Spring runs a fixed-rate task on one scheduler thread
 * and never overlaps two runs, so it needs no synchronization either.
 */
@Component
final class BoardTicker {

    private static final BigDecimal START_PRICE = new BigDecimal("100.00");

    private final LiveBoards liveBoards;
    private final Clock clock;
    private final Random random = new Random();
    private BigDecimal price = START_PRICE;
    private long sequence;

    BoardTicker(LiveBoards liveBoards) {
        this.liveBoards = liveBoards;
        this.clock = Clock.systemUTC();
    }

    @Scheduled(fixedRateString = "${sample.tick-interval:1s}")
    void tick() {
        BigDecimal previous = price;
        double step = random.nextGaussian() * 0.002; // about 0.2 % per tick
        price = price.multiply(BigDecimal.valueOf(1 + step)).setScale(2, RoundingMode.HALF_EVEN);
        Tick next = new Tick(++sequence, clock.instant(), price, price.subtract(previous));
        for (Board board : liveBoards.all()) {
            if (!board.postTick(next)) {
                liveBoards.remove(board); // its session is ending; the board's own end callback follows
            }
        }
    }
}
