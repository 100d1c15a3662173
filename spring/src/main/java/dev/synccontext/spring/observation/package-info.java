/**
 * Observations of queued work: a callback that waited in its context's queue (a post, a busy
 * {@code invokeAsync*}, an {@code @OnContext} body or a STOMP frame that queued) is recorded as a Micrometer
 * {@code Observation} of its run, child of the observation that was current where it was queued, carrying
 * how long it waited. Inline callbacks record nothing.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.spring.observation;

import org.jspecify.annotations.NullMarked;
