package dev.synccontext.spring.live;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The bytes of one server-sent event as the servlet transports frame every live message: {@code scan} is
 * {@link SseFrames#frame}, {@code pattern} the split on {@code "\r\n|\r|\n"} it replaced, the baseline. In this
 * package because {@code SseFrames} is package-private. The data is a capacity pad's update (one line) or the same
 * text over four lines.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
public class SseFrameBenchmark {

    @Param({"1", "4"})
    public int lines;

    private String data = "";

    @Setup
    public void setUp() {
        String line = "{\"pad\":\"k3X9\",\"clicks\":1042,\"nonce\":\"c-51234\",\"tick\":88}";
        data = String.join("\n", Collections.nCopies(lines, line));
    }

    @Benchmark
    public byte[] scan() {
        return SseFrames.frame("a1b2c3-1042", "pad", data);
    }

    @Benchmark
    public byte[] pattern() {
        StringBuilder frame = new StringBuilder(data.length() + 96);
        frame.append("id:").append("a1b2c3-1042").append('\n');
        frame.append("event:").append("pad").append('\n');
        for (String line : data.split("\r\n|\r|\n", -1)) {
            frame.append("data:").append(line).append('\n');
        }
        return frame.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }
}
