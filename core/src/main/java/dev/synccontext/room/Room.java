package dev.synccontext.room;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.registry.Broadcast;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * State that many sessions share (an auction, a game, a document), on a keyed context of its own, with members
 * that get its events. Made by {@link Rooms#open}; found, never made, by {@link Rooms#find}.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>The state is the room context's.</b> {@link #state()} answers only inside a callback of
 *       {@link #context()}; {@link #ask} runs a function of it there and answers on the caller's context.</li>
 *   <li><b>Ordered fan-out.</b> {@link #publish} (on the room's context) hands the event to every member, each
 *       in publication order: a context member through a callback posted to its context, a channel member
 *       through its live channel. An answer the room gave a member by {@link #ask} before an event reaches that
 *       member before the event (FIFO per pair of contexts, see {@link RendererSyncContext#ask}).</li>
 *   <li><b>{@link Delivery#LOG}</b>: every event, in order, no gap, for as long as the membership lasts.
 *       <b>{@link Delivery#CONVERGING}</b>: a member ends on the latest event, intermediate ones coalesced.</li>
 *   <li><b>A fan-out never throws for a member that goes away meanwhile.</b> A refusal (the member's context
 *       closed or full, its channel closed) is counted ({@link Rooms#refusedDeliveries()}, and for contexts the
 *       registry's {@code refusedCallbacks()}), logged with the member's name, and ends that membership; the
 *       other members still get the event.</li>
 *   <li><b>Membership ends with the member's context</b>: when the registry releases it (the session ended)
 *       the member leaves every room of the {@link Rooms} it joined; a context closed without the registry
 *       leaves at the next event it refuses.</li>
 *   <li><b>The room ends with its context</b>: removed, expired ({@link Rooms.Builder#idleTimeout}) or closed
 *       at shutdown; its memberships end then, and {@link Rooms#open} makes a new room for the key.</li>
 * </ul>
 *
 * @param <S> the room's state
 * @param <E> its events
 */
public final class Room<S, E> {

    private final Rooms<S, E> rooms;
    private final String id;
    private final RendererSyncContext context;
    private final S state;
    private final Set<Member<E>> members = ConcurrentHashMap.newKeySet();

    Room(Rooms<S, E> rooms, String id, RendererSyncContext context, S state) {
        this.rooms = rooms;
        this.id = id;
        this.context = context;
        this.state = state;
    }

    /** The id it was opened with ({@code 42}). */
    public String id() {
        return id;
    }

    /** The key of its context in the registry ({@code auction:42}). */
    public String key() {
        return context.name();
    }

    /** The room's own context: its state's, where events are published. */
    public RendererSyncContext context() {
        return context;
    }

    /**
     * The room's state.
     *
     * @throws IllegalStateException off the room's context (the message names it and says to use {@link #ask})
     */
    public S state() {
        context.assertAccess();
        return state;
    }

    /**
     * Runs {@code work} on the room's state on its context and answers on the caller's context, before anything
     * the room sends the caller afterwards ({@link RendererSyncContext#ask}). Outside any context, it is
     * {@code context().invokeAsync}.
     */
    public <T> CompletableFuture<T> ask(Function<? super S, ? extends T> work) {
        Objects.requireNonNull(work, "work");
        return RendererSyncContext.ask(context, () -> work.apply(state));
    }

    /**
     * Makes {@code member} a member: each event published after this call runs {@code receiver} on
     * {@code member}'s context (in order; see {@link Delivery}). To get the state and then every later event with
     * nothing missed in between, join from inside the room, in the same callback that reads the state:
     * {@code room.ask(s -> { room.join(me, onEvent); return s.snapshot(); })}.
     *
     * @throws IllegalStateException if {@code member} is closed
     */
    public Membership join(RendererSyncContext member, Consumer<? super E> receiver) {
        Objects.requireNonNull(member, "member");
        Objects.requireNonNull(receiver, "receiver");
        return add(new ContextMember<>(this, member, receiver));
    }

    /**
     * Makes {@code channel} (a live channel owned by {@code owner}, such as its session's private channel) a
     * member: each event published after this call is published to it as {@code event} with
     * {@code data.apply(e)} as its data, from the room's context. The membership ends with {@code owner}, or
     * when the channel refuses a message (closed).
     *
     * @param data maps an event to the message's data (immutable; it must not throw)
     */
    public Membership join(RendererSyncContext owner, LiveChannel channel, String event, Function<? super E, ?> data) {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(data, "data");
        return add(new ChannelMember<>(this, owner, channel, event, data));
    }

    private Membership add(Member<E> member) {
        if (member.owner.isClosed()) {
            throw new IllegalStateException("Context '" + member.owner.name() + "' is closed: it cannot join room '"
                    + key() + "' (its session ended).");
        }
        members.add(member);
        rooms.joined(member);
        if (context.isClosed()) {
            member.leave(); // the room went away meanwhile: its forget-all may have run before this add
        }
        return member;
    }

    /**
     * Hands {@code event} to every member (see the class comment): on the room's context, so that events are
     * numbered by the order of its callbacks. Never throws for a member that refuses it.
     *
     * @return how many members got it (queued on their context or published to their channel) and how many
     *     refused it and left
     * @throws IllegalStateException off the room's context
     */
    public Broadcast publish(E event) {
        Objects.requireNonNull(event, "event");
        context.assertAccess();
        int delivered = 0;
        int refused = 0;
        for (Member<E> member : members) { // weakly consistent: a member that stays throughout is visited once
            if (!member.isActive()) {
                continue;
            }
            if (member.deliver(event)) {
                delivered++;
            } else {
                refused++;
                member.leave();
            }
        }
        return new Broadcast(delivered, refused);
    }

    /** How many members it has now. */
    public int memberCount() {
        return members.size();
    }

    /** Whether its context is closed (removed, expired, shutdown): {@link Rooms#open} then makes a new room. */
    public boolean isClosed() {
        return context.isClosed();
    }

    Delivery delivery() {
        return rooms.delivery();
    }

    /** {@link Delivery#CONVERGING}: what {@code event} coalesces with ({@link Rooms.Builder#coalesceBy}), or null: the room. */
    @Nullable Object coalesceKey(E event) {
        return rooms.coalesceKey(event);
    }

    boolean offer(RendererSyncContext member, Runnable callback) {
        return rooms.offer(member, callback);
    }

    void refusedByChannel(LiveChannel channel, RuntimeException why) {
        rooms.refusedByChannel(this, channel, why);
    }

    void forget(Member<E> member) {
        members.remove(member);
        rooms.left(member);
    }

    /** Ends every membership: the room's context went away. */
    void endAll() {
        for (Member<E> member : members) {
            member.leave();
        }
    }

    @Override
    public String toString() {
        return "Room[" + key() + ", " + members.size() + " members]";
    }
}
