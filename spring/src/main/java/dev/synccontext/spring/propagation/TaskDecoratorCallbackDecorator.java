package dev.synccontext.spring.propagation;

import dev.synccontext.CallbackDecorator;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import org.springframework.core.task.TaskDecorator;

/**
 * Uses the application's {@link TaskDecorator} (Spring's hook for carrying context onto executor threads,
 * which Boot also applies to its own executors) as the contexts' {@link CallbackDecorator}, so queued
 * callbacks carry the same context as the application's other asynchronous tasks.
 *
 * <p>A {@code TaskDecorator} wraps only {@code Runnable}s; a {@code Callable} is run inside a wrapped
 * {@code Runnable} on the same thread, with its result handed over and its exception (checked or not)
 * passing through the decorator unchanged, so a decorator that observes failures sees them. This
 * requires what {@code TaskDecorator} implementations do anyway: run the task on the calling thread,
 * before {@code run()} returns.
 */
public final class TaskDecoratorCallbackDecorator implements CallbackDecorator {

    private final TaskDecorator taskDecorator;

    public TaskDecoratorCallbackDecorator(TaskDecorator taskDecorator) {
        this.taskDecorator = Objects.requireNonNull(taskDecorator, "taskDecorator");
    }

    @Override
    public Runnable decorate(Runnable callback) {
        return taskDecorator.decorate(callback);
    }

    @Override
    public <T> Callable<T> decorate(Callable<T> callback) {
        CallableRun<T> run = new CallableRun<>(callback);
        Runnable decorated = taskDecorator.decorate(run);
        return () -> {
            decorated.run();
            if (!run.ran) {
                throw new IllegalStateException("TaskDecorator " + taskDecorator + " did not run the callback on"
                        + " the calling thread; a TaskDecorator must call the task it wraps before returning");
            }
            return run.result;
        };
    }

    /** Runs a callable as a runnable on the same thread: keeps its result, rethrows its exception as is. */
    private static final class CallableRun<T> implements Runnable {
        private final Callable<T> callable;
        @Nullable T result; // written and read by the one thread that runs the wrapper
        boolean ran;

        CallableRun(Callable<T> callable) {
            this.callable = callable;
        }

        @Override
        public void run() {
            ran = true;
            try {
                result = callable.call();
            } catch (Exception e) {
                throw CallableRun.<RuntimeException>sneaky(e);
            }
        }

        @SuppressWarnings("unchecked")
        private static <E extends Throwable> E sneaky(Throwable t) throws E {
            throw (E) t; // a checked exception leaves run() as it is, and leaves the wrapper's call() the same way
        }
    }
}
