package dev.synccontext.bench;

import dev.synccontext.RendererSyncContext;

import dev.synccontext.scenario.IdleFootprint;
import java.util.Locale;

/**
 * Prints the other half of {@code ManyContexts}: heap retained per idle context, for each mode that
 * has no thread of its own (an estimate from heap use after requested full GCs; see
 * {@link IdleFootprint}). Run by run.sh after the JMH table.
 */
public final class IdleFootprintReport {

    private IdleFootprintReport() {
    }

    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        System.out.println("Retained heap per idle context (" + count + " contexts, estimate):");
        for (String mode : new String[] {BenchModes.BASELINE, BenchModes.OPTIMIZED, BenchModes.GUAVA_SEQUENTIAL,
            BenchModes.LOCK_INLINE}) {
            IdleFootprint.bytesPerIdleContext(() -> BenchModes.create(mode), count); // warm up class loading
            double bytes = IdleFootprint.bytesPerIdleContext(() -> BenchModes.create(mode), count);
            System.out.println(String.format(Locale.ROOT, "  %-17s %8.1f B", mode, bytes));
        }
        // How the starter's registry builds session contexts: one builder per scope, so the contexts
        // share one settings object; the name is the session's own string, which exists anyway.
        RendererSyncContext.Builder shared = RendererSyncContext.builder().name("session");
        IdleFootprint.bytesPerIdleContext(shared::build, count);
        double bytes = IdleFootprint.bytesPerIdleContext(shared::build, count);
        System.out.println(String.format(Locale.ROOT, "  %-17s %8.1f B   (one shared builder, as the starter's registry does)",
                "optimized-shared", bytes));
    }
}
