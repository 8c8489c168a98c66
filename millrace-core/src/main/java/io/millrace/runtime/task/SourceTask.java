package io.millrace.runtime.task;

import io.millrace.api.source.InputStatus;
import io.millrace.api.source.SourceSplit;
import io.millrace.api.time.Clock;
import io.millrace.operator.Output;
import io.millrace.runtime.exchange.TaskSignal;
import io.millrace.runtime.source.SourceOperator;
import io.millrace.runtime.source.WatermarkAlignment;
import java.util.List;

/**
 * A task whose head is a source reader. It polls the reader only while every output channel can take
 * a batch: when one is full, the source pauses (counted in {@code sourcePauses}) and reads nothing until
 * the consumer catches up. That is how backpressure reaches the source.
 *
 * <p>A source with watermark alignment also reads only while its watermark is within the allowed drift of the lowest
 * in its group ({@link WatermarkAlignment}); otherwise it waits (counted in {@code alignmentPauses}) for the one
 * behind, still answering checkpoints and flushing what it sent.
 */
public final class SourceTask extends Task {
    private static final long NOTHING_AVAILABLE_PARK_NANOS = 1_000_000L;
    /** Longest park for a reader that wakes its task itself: idleness and processing time are still looked at this often. */
    static final long WAKE_UP_PARK_NANOS = 50_000_000L;
    /** Longest park while paused: the source looks at its mailbox (checkpoint triggers) at least this often. */
    private static final long PAUSE_PARK_NANOS = 1_000_000L;
    /** Longest park while ahead of the alignment group; the member that lets it go on wakes it sooner. */
    private static final long ALIGNMENT_PARK_NANOS = 1_000_000L;
    private SourceOperator<Object> source;
    private Output<Object> sourceOutput;
    private List<SourceSplit> splits;
    private SplitCodecs codecs;
    private boolean fixedSplits = true;
    /** The enumerator's state for the checkpoint of that id, handed over just before the checkpoint's trigger. */
    private long enumeratorCheckpoint = -1;
    private io.millrace.runtime.checkpoint.VersionedBytes enumeratorState;
    private String sourceOperatorId;
    private String sourceName;
    private int sourceParallelism;
    private long restoredWatermark = Long.MIN_VALUE;
    private WatermarkAlignment alignment;
    private int alignmentSlot;
    private long maxDrift;
    /** While waiting for the alignment group: the watermark this subtask waits with; else {@code Long.MIN_VALUE}. */
    private long waitingAt = Long.MIN_VALUE;
    /** Set by the reader's wake-up (any thread) since the last poll: the task must not park. */
    private volatile boolean readerWoke;
    /** Whether the last turn of the loop waited for the alignment group: a wait of several parks counts once. */
    private boolean aligning;

    SourceTask(String name, int subtask, Clock clock, TaskSignal signal, TaskHost host, long bufferTimeoutNanos) {
        super(name, subtask, clock, signal, host, bufferTimeoutNanos);
    }

    void setSource(SourceOperator<Object> source, Output<Object> output, List<SourceSplit> splits, String operatorId, String name, int parallelism) {
        this.source = source;
        addCheckpointListener(source::notifyCheckpointComplete);
        source.beforeWatermark(this::watermarkStarts);
        this.sourceOutput = output;
        this.splits = splits;
        this.sourceOperatorId = operatorId;
        this.sourceName = name;
        this.sourceParallelism = parallelism;
    }

    /** The reader has records: wakes the task if it waits for them; thread-safe ({@link io.millrace.api.source.SourceReaderContext#wakeUp}). */
    void wakeUp() {
        readerWoke = true;
        signal.signal();
    }

    /** How the splits are stored in checkpoints. */
    void splitCodecs(SplitCodecs codecs) {
        this.codecs = codecs;
    }

    /** The source has an enumerator: the reader is not told at start that no more splits will come. */
    void dynamicSplits() {
        this.fixedSplits = false;
    }

    /** Splits the enumerator assigned; thread-safe (a mail, after the mails posted before it). */
    void assignSplits(List<SourceSplit> assigned) {
        post(() -> source.addSplits(assigned));
    }

    /** Splits the enumerator took away; thread-safe. */
    void removeSplits(List<String> splitIds) {
        post(() -> source.removeSplits(splitIds));
    }

    /** The enumerator assigns this subtask no more splits; thread-safe. */
    void noMoreSplits() {
        post(() -> source.noMoreSplits());
    }

    /** The enumerator's state for checkpoint {@code checkpointId}, posted just before that checkpoint's trigger; thread-safe. */
    void enumeratorState(long checkpointId, io.millrace.runtime.checkpoint.VersionedBytes state) {
        post(() -> {
            enumeratorCheckpoint = checkpointId;
            enumeratorState = state;
        });
    }

    /** Makes this source read only while its watermark is at most {@code maxDriftMillis} ahead of the lowest in {@code group}. */
    void align(WatermarkAlignment group, long maxDriftMillis) {
        this.alignment = group;
        this.alignmentSlot = group.register(signal);
        this.maxDrift = maxDriftMillis;
    }

    /** When resuming from a checkpoint: the watermark the source had there, emitted before anything is read. */
    void resumeAt(long watermark) {
        this.restoredWatermark = watermark;
    }

    /**
     * Asks this source to snapshot its positions and send a barrier (marked as a savepoint's when it is one),
     * between two reads. Thread-safe.
     */
    public void triggerCheckpoint(long checkpointId, boolean savepoint) {
        post(() -> {
            try {
                snapshot(checkpointId, savepoint, true, 0);
            } catch (Exception e) {
                throw new CheckpointFailure("source task " + this + " failed to snapshot checkpoint " + checkpointId, e);
            }
        });
    }

    @Override
    protected void captureSourceState(long checkpointId, List<SnapshotWriter.Captured> captured) throws Exception {
        List<java.io.Serializable> items = new java.util.ArrayList<>(codecs.encode(source.snapshotSplits(checkpointId)));
        if (enumeratorState != null && enumeratorCheckpoint == checkpointId) {
            items.add(enumeratorState);
        }
        enumeratorState = null;
        captured.add(new SnapshotWriter.Captured(sourceOperatorId, sourceName, sourceParallelism, subtask, null, null,
                items, source.emittedWatermark()));
    }

    @Override
    protected void runLoop() throws Exception {
        try {
            source.restoreWatermark(restoredWatermark);
            source.start(splits, fixedSplits);
            publishToAlignment();
            while (!host.cancelled()) {
                runMailsAndTimers();
                if (!writersWritable()) {
                    pauseForBackpressure();
                    continue;
                }
                if (alignment != null && waitedForAlignment()) {
                    continue;
                }
                readerWoke = false;
                InputStatus status = source.poll();
                publishIdle(source.isIdle());
                publishToAlignment();
                if (status == InputStatus.END_OF_INPUT) {
                    leaveAlignment();
                    publishIdle(false);
                    sourceOutput.emitWatermark(Long.MAX_VALUE);
                    endOfInput();
                    flushAll();
                    return;
                }
                if (status == InputStatus.NOTHING_AVAILABLE) {
                    long held = beforeWaiting();
                    idleWait(Math.min(held, parkNanos(source.nanosUntilAvailable())));
                } else {
                    flushIfDue();
                }
            }
        } finally {
            leaveAlignment();
            source.close();
        }
    }

    /** How long to wait for a reader that found nothing and expects records in {@code expected} ns (-1: unknown). */
    static long parkNanos(long expected) {
        if (expected == Long.MAX_VALUE) {
            return WAKE_UP_PARK_NANOS;
        }
        return expected >= 0 ? Math.min(expected, NOTHING_AVAILABLE_PARK_NANOS) : NOTHING_AVAILABLE_PARK_NANOS;
    }

    private void publishToAlignment() {
        if (alignment != null) {
            alignment.publish(alignmentSlot, source.isIdle() ? WatermarkAlignment.OUT : source.emittedWatermark());
        }
    }

    private void leaveAlignment() {
        if (alignment != null) {
            alignment.publish(alignmentSlot, WatermarkAlignment.OUT);
        }
    }

    /**
     * If this subtask's watermark is more than the allowed drift ahead of the lowest in its group: sends what it holds,
     * waits until woken (by the member that lets it go on, a mail, cancellation) or a held watermark is due, and
     * returns true. An idle subtask never waits: it publishes no watermark to the group and reads to find new records.
     */
    private boolean waitedForAlignment() throws Exception {
        long mine = source.emittedWatermark();
        if (source.isIdle() || !alignment.ahead(mine, maxDrift)) {
            aligning = false;
            return false;
        }
        if (!aligning) {
            aligning = true;
            alignmentPauses++;
        }
        long start = clock.nanoTime();
        long held = beforeWaiting();
        alignment.waitUntilCaughtUp(alignmentSlot, mine, maxDrift);
        waitingAt = mine;
        try {
            idleWait(Math.min(held, ALIGNMENT_PARK_NANOS));
        } finally {
            waitingAt = Long.MIN_VALUE;
            alignment.doneWaiting(alignmentSlot);
        }
        alignedNanos += clock.nanoTime() - start;
        return true;
    }

    private void pauseForBackpressure() {
        sourcePauses++;
        long start = clock.nanoTime();
        while (!writersWritable() && !host.cancelled() && !hasMail()) {
            for (io.millrace.runtime.exchange.RecordWriter w : writers) {
                w.awaitWritable(PAUSE_PARK_NANOS); // the consumer's next poll wakes the source at once
            }
        }
        pausedNanos += clock.nanoTime() - start;
    }

    @Override
    protected long inputWatermark() {
        return source.emittedWatermark();
    }

    @Override
    protected boolean inputAvailable() {
        // the reader woke the task since its last poll; or, while waiting for the alignment group, the lowest caught up
        // between the decision to wait and the park
        return readerWoke || waitingAt != Long.MIN_VALUE && !alignment.ahead(waitingAt, maxDrift);
    }
}
