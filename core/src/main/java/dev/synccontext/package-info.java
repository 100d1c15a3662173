/**
 * The serialized execution context: {@link dev.synccontext.RendererSyncContext} runs the callbacks given
 * to it one at a time, in order, owns no thread and runs work inline when idle. Start with its Javadoc
 * (every guarantee, the entry point × state table, the known limits); {@code SyncContext} explains how
 * it works, and {@code docs/DESIGN.md} in the repository is the design record.
 *
 * <p>Uses only the JDK at run time. Null-marked: no parameter or return value of the public API is
 * {@code null} unless annotated {@code @Nullable} (JSpecify; the annotations are not needed at run time).
 */
@NullMarked
package dev.synccontext;

import org.jspecify.annotations.NullMarked;
