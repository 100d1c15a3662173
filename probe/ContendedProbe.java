import dev.synccontext.RendererSyncContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

/**
 * Contended as ExtraBenchmarks runs it (two threads x 1000 invokeAsync(increment).join() on one context),
 * counting per 1000 calls: calls whose future was not done when invokeAsync returned (queued, the caller
 * then parks in get), and the time per call. Args: rounds warmupRounds
 */
public final class ContendedProbe {
    static int count;
    static volatile int go;
    static final Runnable INCREMENT = () -> count++;

    static long pending(RendererSyncContext ctx) throws Exception {
        long p = 0;
        for (int i = 0; i < 1000; i++) {
            CompletableFuture<Void> f = ctx.invokeAsync(INCREMENT);
            if (!f.isDone()) {
                p++;
                f.get(10, TimeUnit.SECONDS);
            }
        }
        return p;
    }

    static void counters(String m) {
        try {
            Class<?> c = Class.forName("dev.synccontext.ProbeCounters");
            Object o = m.equals("reset") ? c.getMethod("reset").invoke(null) : c.getMethod("report", long.class).invoke(null, Long.parseLong(m));
            if (o != null) System.out.println(o);
        } catch (ClassNotFoundException e) {
            // a jar without the throwaway counters
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        int warm = Integer.parseInt(args[1]);
        RendererSyncContext ctx = RendererSyncContext.builder().build();
        boolean spin = args.length > 2 && args[2].equals("spin");
        CyclicBarrier start = new CyclicBarrier(2);
        CyclicBarrier end = new CyclicBarrier(2);
        long[] otherPending = new long[1];
        Thread other = new Thread(() -> {
            try {
                for (int r = 0; r < warm + rounds; r++) {
                    if (spin) { while (go != r + 1) Thread.onSpinWait(); } else start.await();
                    otherPending[0] = pending(ctx);
                    end.await();
                }
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, "second-caller");
        other.setDaemon(true);
        other.start();
        long totalPending = 0, totalNanos = 0;
        long[] perRound = new long[rounds];
        for (int r = 0; r < warm + rounds; r++) {
            count = 0;
            if (spin) { go = r + 1; } else start.await();
            long t0 = System.nanoTime();
            long p = pending(ctx);
            end.await();
            long t = System.nanoTime() - t0;
            if (count != 2000) throw new IllegalStateException("count " + count);
            if (r == warm - 1) counters("reset");
            if (r >= warm) {
                totalPending += p + otherPending[0];
                totalNanos += t;
                perRound[r - warm] = p + otherPending[0];
            }
        }
        counters(Long.toString(rounds * 2000L));
        java.util.Arrays.sort(perRound);
        System.out.printf("rounds=%d queued-and-pending per 1000 calls=%.2f  ns/call=%.1f  per-round pending (of 2000) min/median/p90/max=%d/%d/%d/%d%n",
                rounds, totalPending * 1000.0 / (rounds * 2000.0), totalNanos / (rounds * 2000.0),
                perRound[0], perRound[rounds / 2], perRound[rounds * 9 / 10], perRound[rounds - 1]);
    }
}
