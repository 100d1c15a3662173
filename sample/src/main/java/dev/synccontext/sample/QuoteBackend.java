package dev.synccontext.sample;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.springframework.stereotype.Component;

/**
 * A slow pricing service, simulated: it answers after {@code sample.quote-latency} on a thread of its
 * own (as an HTTP client or a database driver would), never on the caller's thread. Unknown symbols
 * fail with {@link UnknownSymbolException}. Not final: the sample's tests hold an answer back to show a
 * quote that is still loading.
 */
@Component
public class QuoteBackend {

    /** Reference prices of the symbols the backend knows. */
    static final Map<String, BigDecimal> REFERENCE_PRICES = Map.of(
            "ACME", new BigDecimal("42.17"),
            "GLOBEX", new BigDecimal("118.40"),
            "HOOLI", new BigDecimal("231.55"),
            "INITECH", new BigDecimal("9.85"),
            "UMBRELLA", new BigDecimal("63.02"));

    private final SampleProperties properties;

    QuoteBackend(SampleProperties properties) {
        this.properties = properties;
    }

    /** A quote for {@code symbol}, some time later. */
    CompletableFuture<Quote> fetch(String symbol) {
        long delayMillis = properties.quoteLatency().toMillis();
        return CompletableFuture.supplyAsync(() -> quoteNow(symbol),
                CompletableFuture.delayedExecutor(delayMillis, TimeUnit.MILLISECONDS));
    }

    private static Quote quoteNow(String symbol) {
        BigDecimal reference = REFERENCE_PRICES.get(symbol);
        if (reference == null) {
            throw new UnknownSymbolException("No quote for " + symbol + ": the backend knows "
                    + String.join(", ", REFERENCE_PRICES.keySet().stream().sorted().toList()) + ".");
        }
        double drift = ThreadLocalRandom.current().nextDouble(-0.02, 0.02);
        return new Quote(symbol, reference.multiply(BigDecimal.valueOf(1 + drift)).setScale(2, RoundingMode.HALF_EVEN));
    }

    /** A price for one symbol. */
    record Quote(String symbol, BigDecimal price) {
    }

    /** The backend has no price for the symbol. */
    static final class UnknownSymbolException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        UnknownSymbolException(String message) {
            super(message, null, false, false);
        }
    }
}
