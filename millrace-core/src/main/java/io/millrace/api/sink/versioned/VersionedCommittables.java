package io.millrace.api.sink.versioned;

import io.millrace.api.source.VersionedCodec;

/**
 * Implemented by a {@link io.millrace.api.sink.TwoPhaseCommitSink} whose committables are stored in checkpoints and
 * savepoints as the versioned bytes of a codec instead of by Java serialization, so that a savepoint survives an
 * upgrade of the sink. Restoring reads both forms: committables stored by Java serialization (by a release of the
 * sink without a codec) are used as they are.
 *
 * @param <C> the sink's committable
 */
public interface VersionedCommittables<C extends java.io.Serializable> {
    /** The codec of the committables; called once per subtask, on its thread, when the sink operator opens. */
    VersionedCodec<C> committableCodec();
}
