package dev.synccontext.sample;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * The sample's quote backend, except that a test can hold back the answers for one symbol until it lets them go.
 * A quote is then still loading for as long as the test needs, on a machine of any speed.
 */
final class HeldQuoteBackend extends QuoteBackend {

    private final Map<String, CompletableFuture<Void>> gates = new ConcurrentHashMap<>();

    HeldQuoteBackend(SampleProperties properties) {
        super(properties);
    }

    /** Holds every answer for {@code symbol} (after the usual latency) until the hold is closed. */
    Hold hold(String symbol) {
        CompletableFuture<Void> gate = new CompletableFuture<>();
        if (gates.putIfAbsent(symbol, gate) != null) {
            throw new IllegalStateException(symbol + " is held already");
        }
        return () -> {
            gates.remove(symbol, gate);
            gate.complete(null);
        };
    }

    @Override
    CompletableFuture<Quote> fetch(String symbol) {
        CompletableFuture<Quote> answer = super.fetch(symbol);
        CompletableFuture<Void> gate = gates.get(symbol);
        return gate == null ? answer : answer.thenCombine(gate, (quote, released) -> quote);
    }

    /** Lets the held answers go. */
    interface Hold extends AutoCloseable {

        @Override
        void close();
    }

    /** Puts the held backend in place of the sample's. */
    @TestConfiguration(proxyBeanMethods = false)
    static class Configuration {

        @Bean
        @Primary
        HeldQuoteBackend heldQuoteBackend(SampleProperties properties) {
            return new HeldQuoteBackend(properties);
        }
    }
}
