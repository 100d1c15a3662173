package dev.synccontext.sample;

import dev.synccontext.sample.BoardSnapshot.Item;
import dev.synccontext.spring.durable.session.Durable;
import dev.synccontext.spring.scope.ContextScoped;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * What of a session's {@link Board} outlives its node: the counter and the list. Checkpointed when the session's
 * context runs dry after a change and restored on the node that serves the session next (a deploy, another node
 * behind a balancer). Everything else of the board (the tick, the quote, the live channel to its tabs, the
 * context's statistics) is node-local and starts fresh there.
 *
 * <p>Plain fields like the board's, owned by the session's context: the board reads and changes them only inside
 * its callbacks, through this bean's proxy (which is what tells the durable layer the session changed).
 */
@Component
@ContextScoped
@Durable(name = "board", version = 1)
public class BoardState {

    private long counter;
    private List<Item> items = new ArrayList<>();
    private long nextItemId = 1;

    public long getCounter() {
        return counter;
    }

    public void setCounter(long counter) {
        this.counter = counter;
    }

    /** The list itself: the board changes it in place, inside its context. */
    public List<Item> getItems() {
        return items;
    }

    public void setItems(List<Item> items) {
        this.items = new ArrayList<>(items);
    }

    public long getNextItemId() {
        return nextItemId;
    }

    public void setNextItemId(long nextItemId) {
        this.nextItemId = nextItemId;
    }
}
