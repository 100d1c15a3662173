package dev.synccontext.test.cluster;

import dev.synccontext.spring.durable.session.Durable;
import dev.synccontext.spring.scope.ContextScoped;

/** The durable bean of the cluster tests and of the Spring kit's durable tests: a session's counter. */
@ContextScoped
@Durable(name = "counter")
public class Counter {

    private int count;

    public int getCount() {
        return count;
    }

    public void setCount(int count) {
        this.count = count;
    }

    /** Adds one and answers the new count. */
    public int increment() {
        return ++count;
    }
}
