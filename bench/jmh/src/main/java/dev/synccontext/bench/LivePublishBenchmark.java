package dev.synccontext.bench;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.live.LiveMessage;
import dev.synccontext.live.LiveTransport;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A publish to one idle live subscriber until its transport has the message: one operation is one
 * {@code LiveChannel.publish} from the benchmark thread, then a spin until the transport's {@code write} has been
 * called with it (and its flush), on the default executor. {@code inline=true}: the transport says it writes without
 * blocking, so the publish writes on its own thread; {@code false}: the subscriber's drain is submitted to the
 * executor, as for a transport that may block. The transport only counts (no I/O), so the figure is the hand-off.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
public class LivePublishBenchmark {

    @Param({"true", "false"})
    public boolean inline;

    private LiveChannel channel;
    private CountingTransport transport;
    private long published;
    private final Integer data = 42;

    @Setup(Level.Trial)
    public void setUp() {
        channel = LiveChannel.builder("bench").replayCapacity(16).executor(RendererSyncContext.defaultExecutor())
                .inlineWrites(inline)
                .build(() -> data);
        transport = new CountingTransport(inline);
        channel.subscribe(transport);
        while (transport.flushed < 1) { // the snapshot, on the executor either way
            Thread.onSpinWait();
        }
        published = 0;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        channel.close();
        if (transport.written != published + 1) {
            throw new IllegalStateException(transport.written + " written for " + published + " published (+1 snapshot)");
        }
    }

    @Benchmark
    public long publishUntilWritten() {
        channel.publish("pad", data);
        long expected = ++published + 1;
        while (transport.flushed < expected) {
            Thread.onSpinWait();
        }
        return expected;
    }

    /** Counts writes and flushes; ready at once, no I/O. */
    static final class CountingTransport implements LiveTransport {

        private final boolean nonBlocking;
        volatile long written;
        volatile long flushed;

        CountingTransport(boolean nonBlocking) {
            this.nonBlocking = nonBlocking;
        }

        @Override
        public boolean writesWithoutBlocking() {
            return nonBlocking;
        }

        @Override
        public boolean ready() {
            return true;
        }

        @Override
        public boolean write(LiveMessage message) {
            written++; // one drain at a time
            return true;
        }

        @Override
        public boolean flush() {
            flushed = written; // after the buffer ran empty: what the spin waits for
            return true;
        }

        @Override
        public void close(CloseReason reason) {
        }
    }
}
