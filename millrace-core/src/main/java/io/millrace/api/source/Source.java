package io.millrace.api.source;

import java.util.List;

/**
 * A pull-based, split-aware source. Discovering splits is separate from reading them ({@link #createReader}):
 * a source with a fixed set of splits returns them from {@link #createSplits} and the runtime spreads them over the
 * readers once; a source whose splits change while the job runs returns a {@link SplitEnumerator} from
 * {@link #createEnumerator}. Replayable sources resume from the splits a reader snapshotted; a source that gives a
 * {@link #splitCodec()} has its splits stored in checkpoints in that codec's versioned bytes, else by Java
 * serialization.
 */
public interface Source<T, S extends SourceSplit> extends java.io.Serializable {
    Boundedness boundedness();

    /**
     * All splits of this source, to be spread over the given number of readers (the k-th split to subtask
     * {@code k % parallelism}). Not called when {@link #createEnumerator} returns an enumerator. Default: none.
     */
    default List<S> createSplits(int parallelism) throws Exception {
        return List.of();
    }

    /**
     * The enumerator that discovers and assigns this source's splits while the job runs, or null (the default) for a
     * fixed set of splits from {@link #createSplits}. Called once per job run, on the thread that starts the job.
     *
     * @param restored the enumerator's state in the checkpoint the job resumes from, or null on a fresh start
     */
    default SplitEnumerator<S> createEnumerator(SplitEnumeratorContext<S> context, EnumeratorCheckpoint restored) throws Exception {
        return null;
    }

    SourceReader<T, S> createReader(SourceReaderContext context) throws Exception;

    /** How splits are stored in checkpoints; null, the default: by Java serialization. */
    default VersionedCodec<S> splitCodec() {
        return null;
    }

    /** Suggested parallelism, or -1 to use the pipeline default (e.g. 1 for a single file). */
    default int maxParallelism() {
        return -1;
    }
}
