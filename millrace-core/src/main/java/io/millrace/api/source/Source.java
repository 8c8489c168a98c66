package io.millrace.api.source;

import java.util.List;

/**
 * A pull-based, split-aware source. Discovering splits ({@link #createSplits}) is separate from reading
 * them ({@link #createReader}). Replayable sources can resume from the splits a reader snapshotted.
 */
public interface Source<T, S extends SourceSplit> extends java.io.Serializable {
    Boundedness boundedness();

    /** All splits of this source, to be spread over the given number of readers. */
    List<S> createSplits(int parallelism) throws Exception;

    SourceReader<T, S> createReader(SourceReaderContext context) throws Exception;

    /** Suggested parallelism, or -1 to use the pipeline default (e.g. 1 for a single file). */
    default int maxParallelism() {
        return -1;
    }
}
