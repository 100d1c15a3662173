package dev.synccontext.sample;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the sample board.
 *
 * @param maxItems maximum number of items one board holds
 * @param maxItemLength maximum length of one item's text, in characters
 * @param quoteLatency how long the simulated quote backend takes to answer
 */
@ConfigurationProperties("sample")
public record SampleProperties(int maxItems, int maxItemLength, Duration quoteLatency) {

    public SampleProperties {
        if (maxItems < 1) {
            throw new IllegalArgumentException("sample.max-items must be at least 1, was " + maxItems);
        }
        if (maxItemLength < 1) {
            throw new IllegalArgumentException("sample.max-item-length must be at least 1, was " + maxItemLength);
        }
        if (quoteLatency == null || quoteLatency.isNegative()) {
            throw new IllegalArgumentException("sample.quote-latency must be zero or positive, was " + quoteLatency);
        }
    }
}
