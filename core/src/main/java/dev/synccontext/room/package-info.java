/**
 * State that many sessions share: {@link dev.synccontext.room.Rooms} keeps rooms (an auction, a game, a document)
 * on keyed contexts of a registry, each a {@link dev.synccontext.room.Room} with its state and members. A room
 * fans each event out to its members in order ({@link dev.synccontext.room.Delivery#LOG}, every event, or
 * {@link dev.synccontext.room.Delivery#CONVERGING}, the latest), to their contexts or their live channels, and
 * never throws for a member that goes away meanwhile. Membership ends with the member's context; rooms are made
 * only by {@code open}, found by {@code find}, and expire when idle. JDK only.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated.
 */
@NullMarked
package dev.synccontext.room;

import org.jspecify.annotations.NullMarked;
