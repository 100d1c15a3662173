package dev.synccontext;

/**
 * 64 bytes (a cache line on x86-64 and most ARM servers) between a context's owner fields
 * ({@link OwnerSide}) and its producer fields ({@link CallbackQueue}, {@link SyncContext}). Fields of
 * a subclass are laid out after its superclass's, so the padding has to be a class of its own.
 */
abstract class OwnerSidePadding extends OwnerSide {
    long pad0;
    long pad1;
    long pad2;
    long pad3;
    long pad4;
    long pad5;
    long pad6;
    long pad7;
}
