package dev.synccontext.test.spring;

import dev.synccontext.test.SyncContextTestKit;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Renews the durable layer's node lease on the kit's executor instead of the starter's lease thread.
 *
 * <p>Why: the lease's timer is set on the registry's clock, the kit's virtual one, and fires on the thread that
 * moves time; the starter then hands the renewal to a thread of its own. An {@code advanceBy} past the ttl moved
 * time on before that thread read the clock, so the store found the lease expired, refused the session's next
 * snapshot and the session was released. On the kit's executor each renewal runs when its timer fires, before
 * time moves on: the lease lives through any {@code advanceBy}, in one jump or in steps, as it lives in
 * production where time does not jump.
 *
 * <p>Only the starter's bean named {@value #RENEWER} is replaced; it exists only when the durable layer does. The
 * starter's own executor stays registered for its destroy method and never runs a task. Snapshot writes stay on
 * the starter's writer threads.
 */
final class KitLeaseRenewal implements BeanPostProcessor {

    /** The starter's lease renewer bean ({@code SyncContextDurableAutoConfiguration}). */
    static final String RENEWER = "syncContextDurableLeaseRenewer";

    private final ObjectProvider<SyncContextTestKit> kit;

    KitLeaseRenewal(ObjectProvider<SyncContextTestKit> kit) {
        this.kit = kit;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (RENEWER.equals(beanName) && bean instanceof ExecutorService) {
            return new OnKit(kit.getObject());
        }
        return bean;
    }

    /** An executor service whose tasks are the kit's: they run when the test runs the kit. */
    private static final class OnKit extends AbstractExecutorService {

        private final SyncContextTestKit kit;
        private volatile boolean shutdown;

        OnKit(SyncContextTestKit kit) {
            this.kit = kit;
        }

        @Override
        public void execute(Runnable task) {
            if (shutdown) {
                throw new RejectedExecutionException("The durable lease renewer on the test kit is shut down");
            }
            kit.executor().execute(task);
        }

        @Override
        public void shutdown() {
            shutdown = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown = true;
            return List.of(); // queued tasks are the kit's: it runs or reports them
        }

        @Override
        public boolean isShutdown() {
            return shutdown;
        }

        @Override
        public boolean isTerminated() {
            return shutdown;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return shutdown;
        }
    }
}
