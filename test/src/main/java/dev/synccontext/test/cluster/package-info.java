/**
 * An in-memory cluster on the test kit: several nodes (registry, session contexts and durable state each), one
 * shared state store, one virtual clock, a load balancer, and scripted kill, deploy and stall of a node, so that
 * hand-offs of durable sessions are tested deterministically. Needs {@code synccontext-spring} and Jackson 3.
 */
@NullMarked
package dev.synccontext.test.cluster;

import org.jspecify.annotations.NullMarked;
