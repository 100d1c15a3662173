package dev.synccontext.bench.capacity.load;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;
import java.util.function.ToLongFunction;

/**
 * The load client on {@code k} selector loops: {@code k} {@link LoadClient}s, each its own thread and
 * selector with its share of the tabs, click lines and connects in flight (shares differ by one at most).
 * Still no thread per connection.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A step's figures are those of one client: {@link #nextWindow()} {@linkplain Window#merge merges} the
 *       shards' windows, so counts add and p50/p99/max come from every sample together, never averaged.</li>
 *   <li>Nonces are unique over the shards (see {@link LoadClient}); each tab lives on one shard, so its
 *       clicks and their updates keep their order.</li>
 *   <li>{@code k = 1} is one {@link LoadClient} with the settings as given: the client as it was before
 *       shards.</li>
 * </ul>
 * Not promised: the shards' windows end within microseconds of one another, not at one instant (a click
 * answered meanwhile falls in the window of its own shard, once).
 *
 * <p>Why shards: at 10,000 sessions the ticker's update a second reaches every tab within ~240 ms, so one
 * selector thread reads 10,000 events in a burst while clicks fall due; a click sent late or an update read
 * late counts against the server. More shards than the machine has cores only add context switches.
 */
public final class ShardedLoadClient implements AutoCloseable {

    private final List<LoadClient> shards = new ArrayList<>();

    /**
     * @param settings the whole client's settings (click lines and connects in flight are split over the shards)
     * @param selectors how many selector loops, at least 1 and at most the click lines
     */
    public ShardedLoadClient(LoadClient.Settings settings, int selectors) {
        if (selectors < 1 || selectors > settings.clickLines() || selectors > settings.connectsInFlight()) {
            throw new IllegalArgumentException("selectors: 1 to " + Math.min(settings.clickLines(),
                    settings.connectsInFlight()) + " (one click line and one connect per loop), was " + selectors);
        }
        for (int i = 0; i < selectors; i++) {
            IntUnaryOperator share = shareOf(i, selectors);
            shards.add(new LoadClient(new LoadClient.Settings(settings.server(), settings.clickPeriod(),
                    share.applyAsInt(settings.clickLines()), share.applyAsInt(settings.connectsInFlight()),
                    settings.recordNonces(), settings.webSocket()), i, selectors));
        }
    }

    /** Shard {@code i}'s share of a total: the first {@code total % k} shards take one more. */
    private static IntUnaryOperator shareOf(int i, int k) {
        return total -> total / k + (i < total % k ? 1 : 0);
    }

    /** Opens or keeps {@code sessions} tabs over all shards (see {@link LoadClient#sessions}). */
    public void sessions(int sessions) {
        for (int i = 0; i < shards.size(); i++) {
            shards.get(i).sessions(shareOf(i, shards.size()).applyAsInt(sessions));
        }
    }

    /** Tabs whose stream delivered its first event, over all shards. */
    public int liveTabs() {
        return (int) sum(LoadClient::liveTabs);
    }

    /** Starts or stops clicking on every shard. */
    public void clicking(boolean on) {
        shards.forEach(shard -> shard.clicking(on));
    }

    /** Ends every shard's window and returns them merged (see {@link Window#merge}). */
    public Window nextWindow() {
        return Window.merge(shards.stream().map(LoadClient::nextWindow).toList());
    }

    /** Clicks sent and still waiting for their update, over all shards. */
    public int waitingClicks() {
        return (int) sum(LoadClient::waitingClicks);
    }

    /** Per tab of every shard, the nonces it sent and the nonces its updates carried (see {@link LoadClient#nonceLogs}). */
    public List<List<List<Long>>> nonceLogs() {
        return shards.stream().flatMap(shard -> shard.nonceLogs().stream()).toList();
    }

    /** Clicks sent in the current windows so far, over all shards. */
    public long clicksSentNow() {
        return sum(LoadClient::clicksSentNow);
    }

    @Override
    public void close() {
        shards.forEach(LoadClient::close);
    }

    private long sum(ToLongFunction<LoadClient> figure) {
        return shards.stream().mapToLong(figure).sum();
    }
}
