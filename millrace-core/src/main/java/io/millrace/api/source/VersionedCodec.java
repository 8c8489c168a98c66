package io.millrace.api.source;

import java.io.IOException;

/**
 * Turns a value (a split with its position, an enumerator's state, a sink's committable) into bytes that a
 * checkpoint or savepoint stores, and back. The bytes are stored with {@link #version()}; a later release of the
 * source decodes bytes of every version it ever wrote, so that a savepoint survives an upgrade. Java serialization
 * is not used for values that have a codec.
 *
 * <p>Called on the thread of the subtask that snapshots or restores; implementations keep no state.
 */
public interface VersionedCodec<T> extends java.io.Serializable {
    /** The version {@link #encode} writes; positive, raised whenever the layout of the bytes changes. */
    int version();

    byte[] encode(T value) throws IOException;

    /**
     * Reads bytes that {@link #encode} wrote in {@code version}.
     *
     * @throws IOException naming the version when it is unknown (newer than this codec) or the bytes are damaged
     */
    T decode(int version, byte[] bytes) throws IOException;
}
