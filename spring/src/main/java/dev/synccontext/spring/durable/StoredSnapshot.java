package dev.synccontext.spring.durable;

/**
 * A session's last accepted snapshot, as {@link StateStore#read} finds it: opaque bytes (the
 * {@link SnapshotCodec}'s envelope, or whatever an application's codec writes) and the fencing token of the
 * ownership that wrote them.
 *
 * @param token the token the accepted write carried
 * @param bytes the stored bytes, a copy the caller may keep
 */
public record StoredSnapshot(long token, byte[] bytes) {
}
