package io.millrace.api.sink;

import java.util.List;

/**
 * The writer of an exactly-once sink. Between two checkpoint barriers it writes into something durable
 * but invisible (an in-progress file, an open transaction). On a barrier, {@link #prepareCommit} closes
 * that and describes it as committables; they are stored in the checkpoint and committed by the sink's
 * {@link Committer} once the checkpoint is complete everywhere. Called on the sink subtask's thread only.
 */
public interface CommittingSinkWriter<T, C extends java.io.Serializable> extends SinkWriter<T> {
    /**
     * Makes everything written since the last call durable and ready to commit, and starts a new
     * transaction for what follows. Returns what must be committed when checkpoint {@code checkpointId}
     * completes (possibly nothing).
     */
    List<C> prepareCommit(long checkpointId) throws Exception;
}
