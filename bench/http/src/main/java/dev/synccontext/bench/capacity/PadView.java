package dev.synccontext.bench.capacity;

/**
 * What a tab shows of its session's pad, pushed whole after every change.
 *
 * @param version bumped by every change (a click or a tick)
 * @param clicks clicks this session made
 * @param nonce the nonce of the click that made this change; {@code 0} when a tick made it
 * @param tick the last tick's sequence number
 * @param price the last tick's price, in cents
 */
record PadView(long version, long clicks, long nonce, long tick, long price) {
}
