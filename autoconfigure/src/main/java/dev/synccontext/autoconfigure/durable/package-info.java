/** Auto-configuration of the state that survives a deploy ({@code synccontext.durable.*}). */
@NullMarked
package dev.synccontext.autoconfigure.durable;

import org.jspecify.annotations.NullMarked;
