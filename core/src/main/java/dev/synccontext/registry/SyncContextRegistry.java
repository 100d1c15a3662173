package dev.synccontext.registry;

import dev.synccontext.ContextClock;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.statistics.SyncContextStatistics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Creates the application's contexts with one {@link ContextTemplate}, tracks the open ones, and
 * closes them gracefully: on {@link #release}, on {@link #remove}, and all at once on {@link #close()}
 * (application shutdown).
 *
 * <h2>Scopes</h2>
 * Contexts are grouped by <em>scope</em>, a short tag such as {@code session}, {@code request},
 * {@code websocket}, {@value #KEYED_SCOPE} (contexts from {@link #forKey}) or {@value #BENCHMARK_SCOPE}.
 * Each scope has one {@link SyncContextStatistics} shared by all its contexts (so metrics aggregate,
 * never one meter per session) and one {@link RendererSyncContext.Builder}: contexts built one after
 * another by a builder share its settings object, so each further context costs only its own few
 * fields. Builders are not thread-safe, so each is used under its scope's lock.
 *
 * <h2>Graceful close</h2>
 * {@link #release} closes a context at once (it accepts nothing new) and lets its queued work finish
 * without blocking the caller; if some is still queued after {@code shutdownTimeout}, the context is
 * force-closed: pending futures are cancelled (and counted as {@code cancelled} by the metrics),
 * pending posts are dropped with a warning that counts them. A forced close never waits for a
 * callback that is still running (it finishes by itself) and so never holds a thread, however many
 * sessions expire with a hung callback. {@link #close()} does the same for every context, bounded by
 * one {@code shutdownTimeout} for all of them, and does block for that long at most.
 *
 * <h2>Many contexts at once</h2>
 * {@link #broadcast(Runnable) broadcast} posts one callback to every context (of a scope, of some keys, or
 * chosen by a predicate) and never throws for a context that refuses it ({@link #broadcastAsync(String, Runnable)
 * broadcastAsync}: paced, for many contexts); {@link #postAfter} posts when a
 * delay has passed on the registry's clock. A refusal on such a thread, which has no caller to throw to, is
 * counted ({@link #refusedCallbacks()}) and logged with the context's name. {@link #forKey(String)} creates,
 * {@link #find(String)} never does, and {@link #forKey(String, Duration)} gives a keyed context an idle
 * timeout. Asks between contexts, in order: {@link RendererSyncContext#ask}.
 *
 * <p>Thread-safe.
 */
public class SyncContextRegistry implements AutoCloseable {

    /** Scope of the contexts made by {@link #forKey(String)}. */
    public static final String KEYED_SCOPE = "keyed";

    /** Scope of the contexts made for the actuator endpoint's scenario runs. */
    public static final String BENCHMARK_SCOPE = "benchmark";

    private static final System.Logger LOG = System.getLogger(SyncContextRegistry.class.getName());

    private final ContextTemplate template;
    private final Map<String, Lane> lanes = new ConcurrentHashMap<>();
    /** The contexts of {@link #forKey}, by key. */
    private final KeyedContexts keyed;
    /** The contexts released and still closing, the release hooks, the forced closes. */
    private final GracefulClose closes;
    private final List<Consumer<SyncContextStatistics>> laneListeners = new CopyOnWriteArrayList<>();
    private final LongAdder refusedCreations = new LongAdder();
    /** Posts of the registry's own threads: refusals counted and logged, never thrown. */
    private final Fanout fanout;
    /** Broadcasts of {@link #broadcastAsync}: a window of posts at a time, on the template's executor. */
    private final PacedFanout paced;
    private volatile boolean closed;

    private final @Nullable ExecutorService ownedExecutor;
    private final List<Consumer<RendererSyncContext.Builder>> customizers;
    private final ContextClock clock;

    public SyncContextRegistry(ContextTemplate template) {
        this(template, null);
    }

    /** A registry that also shuts {@code ownedExecutor} down when it closes (after its contexts). */
    public SyncContextRegistry(ContextTemplate template, @Nullable ExecutorService ownedExecutor) {
        this(template, ownedExecutor, List.of());
    }

    /**
     * A registry whose contexts are built by {@code template}'s builder after each of {@code customizers}
     * has been applied to it, in list order (so a later customizer wins). The observer is the registry's
     * own (its scope's {@link SyncContextStatistics}) and is set after the customizers: the metrics always
     * see every context.
     *
     * @param ownedExecutor shut down when the registry closes (after its contexts), or null
     */
    public SyncContextRegistry(ContextTemplate template, @Nullable ExecutorService ownedExecutor,
            List<? extends Consumer<RendererSyncContext.Builder>> customizers) {
        this(template, ownedExecutor, customizers, ContextClock.system());
    }

    /**
     * As {@link #SyncContextRegistry(ContextTemplate, ExecutorService, List)}, on {@code clock}: its
     * contexts' clock (set before the customizers), and the one the shutdown timeout and forced closes
     * are measured and timed on.
     */
    public SyncContextRegistry(ContextTemplate template, @Nullable ExecutorService ownedExecutor,
            List<? extends Consumer<RendererSyncContext.Builder>> customizers, ContextClock clock) {
        this.template = Objects.requireNonNull(template, "template");
        this.ownedExecutor = ownedExecutor;
        this.customizers = List.copyOf(customizers);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.fanout = new Fanout(new RefusalLog(clock));
        this.paced = new PacedFanout(fanout, template.executor());
        this.closes = new GracefulClose(template, clock);
        this.keyed = new KeyedContexts(() -> lane(KEYED_SCOPE), clock, this::release);
    }

    /** The clock of its contexts, its shutdown timeout and its forced closes. */
    public ContextClock clock() {
        return clock;
    }

    /** The settings every context is built with. */
    public ContextTemplate template() {
        return template;
    }

    // ---------------------------------------------------------------- creating and finding

    /**
     * A new open context of {@code scope}, tracked until {@link #release released}. Its name is the
     * scope and a sequence number ({@code session-17}): never a session id, since names appear in logs
     * and in the actuator endpoint.
     */
    public RendererSyncContext create(String scope) {
        checkOpen();
        return lane(scope).create(null);
    }

    /**
     * The context for {@code key}, <b>created</b> if there is none (named after the key, in scope
     * {@value #KEYED_SCOPE}) and kept until {@link #remove(String)}, shutdown, or its idle timeout if it was
     * created with one ({@link #forKey(String, Duration)}). A context that was closed directly is replaced by a
     * new one. It creates, so a mistyped key makes a new context: to reach a context that should already
     * exist (a room, a game), use {@link #find(String)}, which never creates. Counts as a use of the context
     * for its idle timeout.
     */
    public RendererSyncContext forKey(String key) {
        return forKey(key, null);
    }

    /**
     * As {@link #forKey(String)}; a context this call creates is closed after it has been idle for about
     * {@code idleTimeout}, on the registry's {@linkplain #clock() clock} (so a test kit's virtual time moves
     * it): when no callback of it finished and no {@code forKey} asked for it for that long, and nothing is
     * queued on it. It is then released as by {@link #remove(String)} (release hooks run, queued work
     * finishes). The decision is taken inside the context, so it never cuts a running callback short; it
     * comes between one and two timeouts after the last use. Code that keeps the context itself and posts
     * to it without asking {@code forKey} keeps it alive only through its callbacks; once it expired, such a
     * post is refused like any post to a closed context ({@code forKey} again to get a new one). On a
     * context that exists already the timeout is not changed; the call counts as a use. Every callback counts
     * as a use, whatever its origin: a context that a periodic {@link #broadcast} reaches more often than
     * once per {@code idleTimeout} never expires.
     *
     * @param idleTimeout positive
     */
    public RendererSyncContext forKey(String key, @Nullable Duration idleTimeout) {
        Objects.requireNonNull(key, "key");
        if (idleTimeout != null && (idleTimeout.isNegative() || idleTimeout.isZero())) {
            throw new IllegalArgumentException("idleTimeout must be positive, was " + idleTimeout);
        }
        checkOpen();
        return keyed.getOrCreate(key, idleTimeout);
    }

    /**
     * The open context for {@code key}, if {@link #forKey} made one; never creates one, and does not count as
     * a use for the idle timeout. A context found here may close right after (removed, expired, shutdown):
     * its refusals then say so.
     */
    public Optional<RendererSyncContext> find(String key) {
        return keyed.find(key);
    }

    /**
     * Forgets the context for {@code key} and closes it gracefully (see the class comment).
     *
     * @return whether there was one
     */
    public boolean remove(String key) {
        RendererSyncContext context = keyed.remove(key);
        if (context == null) {
            return false;
        }
        release(context);
        return true;
    }

    /**
     * A new context with the registry's settings that the registry does not track (its statistics are
     * those of {@code scope}): for short-lived uses such as a benchmark run, closed by the caller.
     */
    public RendererSyncContext createUntracked(String scope, String name) {
        return lane(scope).build(name);
    }

    // ---------------------------------------------------------------- many contexts at once

    /**
     * Posts {@code callback} to every open context of this registry, of every scope; see
     * {@link #broadcast(Predicate, Runnable)}.
     */
    public Broadcast broadcast(Runnable callback) {
        return broadcast(context -> true, callback);
    }

    /** Posts {@code callback} to every open context of {@code scope}; see {@link #broadcast(Predicate, Runnable)}. */
    public Broadcast broadcast(String scope, Runnable callback) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(callback, "callback");
        Lane lane = lanes.get(scope);
        return lane == null ? new Broadcast(0, 0) : fanout.toEach(lane.live.iterator(), context -> true, callback);
    }

    /**
     * Posts {@code callback} to every open keyed context ({@link #forKey}) whose key {@code keys} accepts, such
     * as {@code key -> key.startsWith("room-")}; see {@link #broadcast(Predicate, Runnable)}.
     */
    public Broadcast broadcastToKeys(Predicate<String> keys, Runnable callback) {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(callback, "callback");
        return fanout.toKeys(keyed.byKey(), keys, callback);
    }

    /**
     * Posts {@code callback} to every open context of this registry that {@code which} accepts; it runs on each
     * as a posted callback (queued, never on the calling thread; a failure goes to that context's
     * unhandled-exception handler). Never throws for a context that refuses it (closed meanwhile, full):
     * each refusal is counted ({@link #refusedCallbacks()}), logged at DEBUG with the context's name, and
     * summed up at WARNING at most once a minute; the others still get it.
     *
     * <p><b>Guarantees.</b> A context that is open for the whole call gets the callback exactly once. A context created or
     * closed during the call may get it or not (if it refuses, that is counted). The contexts are visited
     * in no particular order, without copying the registry's sets: a broadcast to 10,000 sessions allocates
     * little beyond their queue slots. {@code which} runs on the calling thread and must not block. Every drain
     * it starts is queued on the executor at once, and other work waits behind them all: for a broadcast to many
     * contexts (a ticker's to every session), {@link #broadcastAsync(Predicate, Runnable)} paces them.
     *
     * @return how many contexts accepted the callback and how many refused it
     */
    public Broadcast broadcast(Predicate<? super RendererSyncContext> which, Runnable callback) {
        Objects.requireNonNull(which, "which");
        Objects.requireNonNull(callback, "callback");
        return fanout.toEach(PacedFanout.across(lanes.values()), which, callback);
    }

    /** {@link #broadcastAsync(Predicate, Runnable)} to every open context of {@code scope}: a ticker's call. */
    public CompletionStage<Broadcast> broadcastAsync(String scope, Runnable callback) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(callback, "callback");
        Lane lane = lanes.get(scope);
        return paced.submit(lane == null ? Collections.emptyIterator() : lane.live.iterator(), context -> true, callback);
    }

    /**
     * As {@link #broadcast(Predicate, Runnable)}, with its guarantees (a context open from this call until the stage
     * completes gets it exactly once; refusals counted, never thrown), but <b>asynchronous and paced</b>: a window
     * of {@value PacedFanout#WINDOW} posts at a time, the next posted by a task queued on the registry's executor
     * behind the drains the last one started, so work queued there meanwhile (a click, a write to a tab) waits
     * behind a window, not the whole broadcast. For broadcasts to many contexts (bench/README.md, "Capacity per
     * node"). They run one at a time, in call order, so each context gets them in that order (a window doubles
     * per broadcast waiting behind, so that they catch up); a synchronous broadcast or a post made later may
     * come first. {@code which} runs on the calling or an executor thread.
     *
     * @return the count, once every context has been tried (the last callbacks may still be queued): completed on
     *     the calling thread if all fit in the first window, else on an executor thread outside any context (keep
     *     dependents short); exceptionally with what {@code which} threw (contexts tried before keep it)
     */
    public CompletionStage<Broadcast> broadcastAsync(Predicate<? super RendererSyncContext> which, Runnable callback) {
        Objects.requireNonNull(which, "which");
        Objects.requireNonNull(callback, "callback");
        return paced.submit(PacedFanout.across(lanes.values()), which, callback);
    }

    /**
     * Posts {@code callback} to {@code context} from a thread that has no caller to throw to (a fan-out, a
     * timer of the application's): a refusal (closed meanwhile, or full) is counted in
     * {@link #refusedCallbacks()} and logged with the context's name and {@code what}, as a broadcast's are,
     * instead of thrown. The explicit {@code post} still throws.
     *
     * @param what names the callback in the log ("A room's event")
     * @return whether the context queued it
     */
    public boolean offer(RendererSyncContext context, Runnable callback, String what) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(callback, "callback");
        Objects.requireNonNull(what, "what");
        return fanout.post(context, callback, what);
    }

    /**
     * Posts {@code callback} to {@code context} once {@code delay} has passed on the registry's
     * {@linkplain #clock() clock} (a test kit's virtual time moves it). If the context refuses it then (closed
     * meanwhile, or full), the refusal is counted ({@link #refusedCallbacks()}) and logged with the context's
     * name, never thrown on the timer's thread, where no one would see it.
     *
     * @return a handle that cancels the post if it has not been made
     */
    public Future<?> postAfter(RendererSyncContext context, Duration delay, Runnable callback) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(callback, "callback");
        return clock.schedule(() -> fanout.post(context, callback, "A delayed callback"), delay);
    }

    /**
     * Callbacks that a thread of the registry's own could not hand to a context because it refused them:
     * those of {@link #broadcast broadcasts}, of {@link #postAfter} and of {@link #offer} (a room's fan-out). (A
     * callback posted explicitly with {@code post} still throws to its caller, and is not counted here.)
     */
    public long refusedCallbacks() {
        return fanout.refused();
    }

    // ---------------------------------------------------------------- closing

    /**
     * Stops tracking {@code context} and closes it gracefully, without blocking: queued work may finish
     * within {@code shutdownTimeout}, after which the context is force-closed. Does nothing for a
     * context this registry does not track.
     */
    public void release(RendererSyncContext context) {
        boolean tracked = false;
        for (Lane lane : lanes.values()) {
            tracked |= lane.untrack(context);
        }
        if (!tracked) {
            return;
        }
        keyed.forget(context);
        Lane keyedLane = lanes.get(KEYED_SCOPE);
        if (keyedLane != null) {
            ((KeyedActivity) keyedLane.observer).forget(context);
        }
        closes.release(context);
    }

    /**
     * Closes every context, lets queued work finish within one {@code shutdownTimeout} for all of them,
     * then force-closes what is left. Blocks until done. Later calls to {@link #create} and
     * {@link #forKey} fail.
     */
    @Override
    public void close() {
        closed = true;
        List<RendererSyncContext> open = new ArrayList<>();
        for (Lane lane : lanes.values()) {
            for (RendererSyncContext context : lane.live) {
                if (lane.observer instanceof KeyedActivity activity) {
                    activity.forget(context);
                }
                closes.postLastCallbacks(context);
                open.add(context);
            }
            lane.live.clear();
        }
        keyed.clear();
        closes.closeAll(open);
        if (ownedExecutor != null) {
            ownedExecutor.shutdown();
        }
    }

    /** Force-closes {@code context} unless it has terminated; true if this call forced it. */
    boolean forceIfRunning(RendererSyncContext context) {
        return closes.forceIfRunning(context);
    }

    /**
     * Registers {@code hook}, asked for a last callback of every context this registry releases
     * ({@link #release}, {@link #remove}) or closes at shutdown ({@link #close()}). The callback it returns
     * (or null for none) is queued as the context's last callback in the same step that closes it
     * ({@link RendererSyncContext#closeAfter}), so it runs after every callback accepted before, on the
     * context, and nothing of the context runs after it. If the context no longer accepts
     * it (closed directly), it runs at once on the releasing thread; if a forced close drops it (queued
     * work outlived {@code shutdownTimeout}), it runs on the forcing thread right after the forced close,
     * perhaps while a hung callback still runs. Either way it runs once. How context-scoped state is
     * destroyed with its context.
     */
    public void onRelease(Function<RendererSyncContext, @Nullable Runnable> hook) {
        closes.addReleaseHook(Objects.requireNonNull(hook, "hook"));
    }

    /**
     * Registers {@code hook}, asked for a last callback of every context a {@link ShutdownDrain} closes (those this
     * registry tracks then). The callback it returns (or null for none) is queued as the context's last callback in
     * the step that closes it for shutdown ({@link RendererSyncContext#closeForShutdownAfter}), so it runs on the
     * context after every callback accepted before, within the drain's callbacks deadline, and before the live
     * channels go away: how state that must outlive the node is written and given up while its clients are still
     * connected. A forced close at that deadline runs it on the forcing thread, as for {@link #onRelease}. Unlike
     * a release hook's, it does not mean the context's state is gone: the release hooks still run when the
     * registry closes.
     */
    public void onShutdownDrain(Function<RendererSyncContext, @Nullable Runnable> hook) {
        closes.addDrainHook(Objects.requireNonNull(hook, "hook"));
    }

    /**
     * Unregisters {@code hook} (the same instance given to {@link #onRelease}), so that the registry no longer
     * holds it: for a part that ends before the registry ({@code Rooms.close()}). A release already under way
     * may still call it once.
     *
     * @return whether it was registered
     */
    public boolean removeReleaseHook(Function<RendererSyncContext, @Nullable Runnable> hook) {
        return closes.removeReleaseHook(Objects.requireNonNull(hook, "hook"));
    }

    private void checkOpen() {
        if (closed) {
            refusedCreations.increment();
            throw new ShuttingDownException("The SyncContextRegistry is shutting down or closed (application shutdown): it"
                    + " creates no new context; the request should go to another instance (readiness says"
                    + " REFUSING_TRAFFIC)");
        }
    }

    /**
     * The first step of a {@link ShutdownDrain}: from now on {@link #create} and {@link #forKey} refuse with
     * {@link ShuttingDownException}, and every tracked context is closed
     * ({@link RendererSyncContext#closeForShutdown()}), so it refuses new callbacks with a
     * {@link dev.synccontext.ContextShuttingDownException} and finishes what it has, then the
     * {@link #onShutdownDrain} hooks' last callbacks. Unlike {@link #close()} it neither waits, nor posts the
     * release hooks' last callbacks (context-scoped state, and the live channels it holds, stay until
     * {@link #close()}), nor shuts the executor down (subscribers' drains still run on it). A context released
     * before, still closing, runs its release hooks' last callbacks already; it gets no drain callback.
     *
     * @return the contexts closed, tracked still
     */
    List<RendererSyncContext> stopAccepting() {
        closed = true;
        List<RendererSyncContext> closing = new ArrayList<>(closes.closing);
        closing.forEach(RendererSyncContext::closeForShutdown); // so each refusal says why: ContextShuttingDownException
        List<RendererSyncContext> all = new ArrayList<>(closing);
        for (Lane lane : lanes.values()) {
            for (RendererSyncContext context : lane.live) {
                closes.closeForShutdown(context);
                all.add(context);
            }
        }
        return all;
    }

    /** {@link #create} and {@link #forKey} calls refused because the registry was shutting down or closed. */
    public long refusedCreations() {
        return refusedCreations.sum();
    }

    // ---------------------------------------------------------------- reading

    /**
     * Whether {@code context} is one of this registry's contexts of {@code scope}: open, or released and
     * still finishing its queued work.
     */
    public boolean belongsTo(RendererSyncContext context, String scope) {
        Lane lane = lanes.get(scope);
        return lane != null && (lane.live.contains(context) || closes.closing.contains(context));
    }

    /** Whether {@code context} is one of this registry's tracked contexts, of any scope (open, or closing). */
    public boolean tracks(RendererSyncContext context) {
        if (closes.closing.contains(context)) {
            return true;
        }
        for (Lane lane : lanes.values()) {
            if (lane.live.contains(context)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The context itself behind a {@link ContextProxy} (such as the starter's injected
     * {@code RendererSyncContext}, which resolves on every call to the current session's, request's or
     * running callback's context), resolved now; any other context is returned as it is. Keep the result
     * to reach the same context later from threads that have neither a request nor a running callback,
     * such as schedulers or I/O callbacks.
     *
     * @throws RuntimeException the proxy's own, if it cannot resolve on this thread (the starter's
     *     throws Spring's {@code ScopeNotActiveException})
     */
    public RendererSyncContext resolve(RendererSyncContext context) {
        return context instanceof ContextProxy proxy ? proxy.target() : context;
    }

    /** Every open tracked context, of every scope. A snapshot. */
    public List<RendererSyncContext> contexts() {
        return lanes.values().stream().flatMap(lane -> lane.live.stream()).collect(Collectors.toCollection(ArrayList::new));
    }

    /** The statistics of every scope used so far. */
    public List<SyncContextStatistics> statistics() {
        return lanes.values().stream().map(lane -> lane.statistics).collect(Collectors.toCollection(ArrayList::new));
    }

    /** The statistics of {@code scope}, created (with no contexts yet) if the scope was not used so far. */
    public SyncContextStatistics statistics(String scope) {
        return lane(scope).statistics;
    }

    /**
     * Calls {@code listener} with the statistics of every scope used so far, and later with those of
     * each new scope when it is first used: how a metrics binder exports scopes that appear at run time.
     */
    public void onEachScope(Consumer<SyncContextStatistics> listener) {
        synchronized (lanes) {
            laneListeners.add(listener);
            lanes.values().forEach(lane -> listener.accept(lane.statistics));
        }
    }

    /** Contexts that were closed but still finish queued work. */
    public int closingContexts() {
        return closes.closing.size();
    }

    /** Contexts whose queued work did not finish within {@code shutdownTimeout} and that were force-closed. */
    public long forcedCloses() {
        return closes.forcedCloses();
    }

    /** Posted callbacks dropped by force-closes (futures cancelled by them are counted by the statistics). */
    public long cancelledPosts() {
        return closes.cancelledPosts();
    }

    Lane lane(String scope) {
        Lane lane = lanes.get(scope);
        if (lane != null) {
            return lane;
        }
        synchronized (lanes) {
            lane = lanes.get(scope);
            if (lane == null) {
                lane = new Lane(scope, template, clock, customizers);
                lanes.put(scope, lane);
                for (Consumer<SyncContextStatistics> listener : laneListeners) {
                    listener.accept(lane.statistics);
                }
            }
            return lane;
        }
    }
}
