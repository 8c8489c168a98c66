package io.millrace.api.source;

import java.util.List;

/**
 * Reads the splits assigned to one source subtask. All methods are called by the subtask's own
 * thread. {@link #pollNext} must not block: it emits what is available now (at most about a batch)
 * and returns.
 *
 * <p>Lifecycle: {@code addSplits} (once or more), {@code pollNext} until it returns END_OF_INPUT
 * (bounded) or the job stops, interleaved with {@code snapshotState}; then {@code close}.
 */
public interface SourceReader<T, S extends SourceSplit> extends AutoCloseable {
    void addSplits(List<S> splits);

    /** The source will never assign more splits; a bounded reader may end once its splits are read. */
    void noMoreSplits();

    InputStatus pollNext(ReaderOutput<T> output) throws Exception;

    /**
     * After {@link #pollNext} returned {@code NOTHING_AVAILABLE}: in how many nanoseconds the reader expects records
     * again, if it knows (a paced reader does); the subtask then waits at most that long instead of its usual pause
     * (1 ms). -1, the default: it cannot tell.
     */
    default long nanosUntilAvailable() {
        return -1;
    }

    /** The splits with the positions reached after the last emitted record. */
    List<S> snapshotState();

    @Override
    void close() throws Exception;
}
