package io.millrace.runtime.checkpoint;

import java.io.Serializable;

/**
 * An operator-state item that its owner encoded itself with a versioned codec (a source split, an enumerator's
 * state, a sink's committable, an operator's broadcast state): stored as {@code kind}, {@code version} and the bytes,
 * with no Java serialization. {@code kind} says what the bytes are to the owner ({@link #SPLIT}, {@link #ENUMERATOR},
 * {@link #ASYNC_REQUEST}, {@link #COMMITTABLE}, {@link #BROADCAST_STATE}).
 */
public record VersionedBytes(int kind, int version, byte[] bytes) implements Serializable {
    /** A source split with its position. */
    public static final int SPLIT = 1;
    /** The state of a source's split enumerator. */
    public static final int ENUMERATOR = 2;
    /** A record an asynchronous operator had received but whose results it had not emitted yet. */
    public static final int ASYNC_REQUEST = 3;
    /** A committable of a two-phase-commit sink. */
    public static final int COMMITTABLE = 4;
    /**
     * One broadcast state of an operator, the same on every subtask: restored to every new subtask, from the first
     * old subtask that stored any (see {@link StateRestorer#operatorItems}), not spread over them.
     */
    public static final int BROADCAST_STATE = 5;
}
