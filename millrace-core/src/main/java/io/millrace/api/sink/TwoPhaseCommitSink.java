package io.millrace.api.sink;

/**
 * An exactly-once sink: a {@link CommittingSinkWriter} per subtask prepares output on every checkpoint
 * barrier, and a {@link Committer} makes it visible when the checkpoint completes. After a restore the
 * runtime first commits the committables of the restored checkpoint, then calls
 * {@link #abortLingering} so that each subtask removes what a failed run prepared or began but no
 * complete checkpoint references; the writer's names must therefore be derived from the job, the sink,
 * the subtask and the checkpoint id, so they can be found again.
 *
 * <p>Committables are stored in checkpoints by Java serialization unless the sink also implements
 * {@link io.millrace.api.sink.versioned.VersionedCommittables}, which gives them a stable, versioned codec.
 */
public interface TwoPhaseCommitSink<T, C extends java.io.Serializable> extends Sink<T> {
    @Override
    CommittingSinkWriter<T, C> createWriter(SinkContext context) throws Exception;

    Committer<C> createCommitter(SinkContext context) throws Exception;

    /**
     * Removes output of this subtask that was started or prepared after checkpoint
     * {@code restoredCheckpointId} (or ever, when it is -1: a fresh start). Called once per subtask
     * before the writer is created. Must be idempotent.
     */
    void abortLingering(SinkContext context, long restoredCheckpointId) throws Exception;
}
