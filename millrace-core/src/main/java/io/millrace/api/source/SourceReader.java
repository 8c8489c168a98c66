package io.millrace.api.source;

import java.util.List;

/**
 * Reads the splits assigned to one source subtask. All methods are called by the subtask's own
 * thread. {@link #pollNext} must not block: it emits what is available now (at most about a batch)
 * and returns.
 *
 * <p>Lifecycle: {@code addSplits} (once or more, also while reading when the source has a
 * {@link SplitEnumerator}), {@code pollNext} until it returns END_OF_INPUT (bounded) or the job stops, interleaved
 * with {@code snapshotState}, {@code notifyCheckpointComplete} and {@code removeSplits}; then {@code close}.
 */
public interface SourceReader<T, S extends SourceSplit> extends AutoCloseable {
    void addSplits(List<S> splits);

    /** The source will never assign more splits; a bounded reader may end once its splits are read. */
    void noMoreSplits();

    /**
     * The enumerator took these splits away: stop reading them and leave them out of later snapshots. Ids the reader
     * does not hold are ignored. Default: refuses, for readers whose source never removes splits.
     */
    default void removeSplits(List<String> splitIds) {
        throw new UnsupportedOperationException("this reader cannot give splits back: " + splitIds);
    }

    InputStatus pollNext(ReaderOutput<T> output) throws Exception;

    /**
     * After {@link #pollNext} returned {@code NOTHING_AVAILABLE}: in how many nanoseconds the reader expects records
     * again, if it knows (a paced reader does); the subtask then waits at most that long instead of its usual pause
     * (1 ms). {@link Long#MAX_VALUE}: the reader calls {@link SourceReaderContext#wakeUp()} when records arrive, and
     * the subtask sleeps until then (still waking for checkpoints, timers and idleness checks). -1, the default: it
     * cannot tell.
     */
    default long nanosUntilAvailable() {
        return -1;
    }

    /** The splits with the positions reached after the last emitted record. */
    List<S> snapshotState();

    /**
     * The positions for checkpoint {@code checkpointId}; a reader that commits upstream when the checkpoint
     * completes remembers them here. Default: {@link #snapshotState()}.
     */
    default List<S> snapshotState(long checkpointId) {
        return snapshotState();
    }

    /**
     * The checkpoint is complete: every reader's positions and all state are stored, so a reader may commit offsets
     * or acknowledge messages upstream up to the positions of that checkpoint. Notices can be skipped (only the
     * newest is sent) but never come for a checkpoint that did not complete. Default: nothing.
     */
    default void notifyCheckpointComplete(long checkpointId) throws Exception {}

    @Override
    void close() throws Exception;
}
