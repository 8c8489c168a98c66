package io.millrace.operator;

/**
 * An operator that wants to hear how the checkpoints it took part in end: a sink that commits what it prepared
 * once the checkpoint is complete (the exactly-once sink), a connector that acknowledges upstream. Any operator
 * may implement it; the task finds it by type, also when the runtime runs the operator as a copy of its class.
 *
 * <p>Both methods are called on the operator's task thread, as mails between batches, never during another call
 * into the operator, and never before {@link StreamOperator#open}. Notices may come late, and for a checkpoint
 * that completed while a newer one was already taken; they come in increasing id order, and a completion notice
 * older than one already delivered is dropped, so completion of {@code n} also means that every checkpoint
 * before {@code n} is either complete or abandoned. An exception fails the task.
 *
 * <p>A task whose chain has a listener stays, after the end of its input, until the final checkpoint is complete
 * and its listeners have been told, so that what they commit then is not lost with the job's end.
 */
public interface CheckpointListener {
    /** Checkpoint {@code checkpointId} is complete: every task acknowledged it and its metadata is stored. */
    void notifyCheckpointComplete(long checkpointId) throws Exception;

    /**
     * Checkpoint {@code checkpointId} will not complete: it timed out, its metadata could not be written, or the
     * job began to end. What the operator prepared for it is still in its later snapshots unless it drops it
     * here. Default: nothing (prepared work waits for the next completion).
     */
    default void notifyCheckpointAborted(long checkpointId) throws Exception {}
}
