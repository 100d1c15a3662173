/**
 * Durable context state: what lets the state of a session's context-scoped beans outlive the node that holds
 * it. {@link dev.synccontext.spring.durable.StateStore} is the contract a store keeps (one owner per session
 * across the cluster, fenced writes, node leases, hand-off messages);
 * {@link dev.synccontext.spring.durable.InMemoryStateStore} keeps it for one node or a test's virtual cluster,
 * {@code dev.synccontext.spring.durable.redis} on Redis. {@link dev.synccontext.spring.durable.SnapshotCodec}
 * turns a session's durable beans into versioned JSON and back, refusing anything it cannot vouch for; it
 * knows nothing of stores, and stores know nothing of JSON. {@code spring/DURABLE-STATE.md} is the reference.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.spring.durable;

import org.jspecify.annotations.NullMarked;
