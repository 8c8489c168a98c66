package io.millrace.api.source;

/**
 * Discovers the splits of a source while the job runs (new partitions, new files) and hands them to the source's
 * subtasks through its {@link SplitEnumeratorContext}; it may also take a split away again. One enumerator runs per
 * source and job, beside the subtasks: {@link #start} on the thread that starts the job, {@link #discover} on the
 * job's split-discovery thread, {@link #snapshotState} and {@link #notifyCheckpointComplete} on the checkpoint
 * coordinator's; the runtime makes these calls one at a time (under one lock, so each sees what the previous wrote),
 * so an enumerator needs no locks of its own.
 *
 * <p>Assignments and checkpoints are ordered: a split assigned before a {@code snapshotState} reaches its reader
 * before the reader snapshots for that checkpoint, and one assigned after does not. So the enumerator's state and
 * the readers' positions in a checkpoint always agree on which splits were handed out.
 *
 * <pre>
 *   created ─► start ─► discover, snapshotState, notifyCheckpointComplete (any order, repeatedly) ─► close
 * </pre>
 */
public interface SplitEnumerator<S extends SourceSplit> extends AutoCloseable {
    /**
     * Called once before any reader reads. On a fresh start the enumerator assigns its initial splits here; when
     * restored (its source's {@code createEnumerator} was given a checkpoint) the readers already hold the splits
     * of the checkpoint and only splits the enumerator never handed out are new.
     *
     * @throws Exception a bad configuration (a missing topic, an unreachable server): the job does not start
     */
    void start() throws Exception;

    /**
     * Looks for new (or vanished) splits and assigns (or removes) them; called every {@link #discoveryIntervalMillis}
     * after {@link #start}. A failure here fails the job, like a failing reader.
     */
    default void discover() throws Exception {}

    /** How often {@link #discover} runs, in milliseconds; 0 or less, the default: never. */
    default long discoveryIntervalMillis() {
        return 0;
    }

    /** The version of the bytes {@link #snapshotState} writes (see {@link VersionedCodec}). */
    default int stateVersion() {
        return 1;
    }

    /** The enumerator's state for a checkpoint, in the layout of {@link #stateVersion()}. */
    byte[] snapshotState(long checkpointId) throws Exception;

    /** A checkpoint is complete (every reader has its positions stored). Default: nothing. */
    default void notifyCheckpointComplete(long checkpointId) throws Exception {}

    @Override
    default void close() throws Exception {}
}
