package dev.synccontext.spring.durable.session;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@link dev.synccontext.spring.scope.ContextScoped @ContextScoped} bean whose state outlives its node: a
 * session's instance is snapshotted (JSON through the application's mapper) when its context's queue runs dry
 * after a call reached it, restored on the node that serves the session next, and written a last time at a
 * graceful shutdown. Beans without it stay node-local.
 *
 * <h2>What it guarantees</h2>
 * <ul>
 *   <li><b>A graceful stop loses nothing</b>: the final snapshot is written after the session's queued callbacks
 *       and before the session is released to other nodes.</li>
 *   <li><b>A killed node loses at most</b> what changed after its last accepted snapshot: bounded by
 *       {@code synccontext.durable.debounce} plus one store write.</li>
 *   <li><b>One owner per session</b>: a node that lost the session (a pause, a partition) cannot overwrite the new
 *       owner's state; its writes are refused by the store and its copy is dropped.</li>
 * </ul>
 *
 * <h2>What the class must be</h2>
 * Jackson-bindable: a no-argument constructor and Jackson-visible state (getters and setters, or public fields).
 * Dependencies injected into the bean ({@code @Autowired} fields, constructor arguments) are not state: mark such
 * fields {@code @JsonIgnore}. The application refuses to start with a durable bean the mapper cannot round-trip,
 * naming the bean and the fix. Restoring sets the stored properties on the freshly created and injected instance.
 *
 * <p>Change of the JSON form: raise {@link #version()} and declare a
 * {@link dev.synccontext.spring.durable.DurableType} bean of the same {@link #name()} with the upgrade step from
 * the old version ({@code DurableType.of("cart", Cart.class, 2).upgrade(1, state -> ...)}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Durable {

    /**
     * The name snapshots record for this type (letters, digits, {@code . _ -}); keep it when the class is renamed or
     * moved. Empty: the class's simple name, decapitalized ({@code Cart} → {@code cart}), which a rename changes.
     */
    String name() default "";

    /** The version of the JSON form written now, from 1. */
    int version() default 1;
}
