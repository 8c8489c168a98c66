package io.millrace.runtime.source;

import io.millrace.api.source.BadRecord;
import io.millrace.api.source.BadRecordPolicy;
import io.millrace.api.source.InputStatus;
import io.millrace.api.source.ReaderOutput;
import io.millrace.api.source.SourceReader;
import io.millrace.api.source.SourceSplit;
import io.millrace.api.time.Clock;
import io.millrace.api.time.TimestampAssigner;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.OperatorMetricGroup;
import io.millrace.operator.Output;
import io.millrace.operator.UserFunctionException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Drives a {@link SourceReader} for one source subtask: assigns timestamps, runs one watermark
 * generator per split, tracks split idleness, applies the bad-record policy, and emits the combined
 * watermark (the minimum over active splits) after every poll. Used by the source task's thread only.
 */
public final class SourceOperator<T> implements ReaderOutput<T> {
    /** Id of the split used when a reader emits without naming one. */
    static final String DEFAULT_SPLIT = "\u0000default";

    private final SourceReader<T, SourceSplit> reader;
    private final WatermarkStrategy<T> strategy;
    private final BadRecordPolicy badRecordPolicy;
    private final OperatorContext context;
    private final Output<T> output;
    private final OperatorMetricGroup metrics;
    private final TimestampAssigner<T> assigner;
    private final long idleTimeoutMillis;
    private final Clock clock;
    private final Map<String, SplitWatermarks<T>> splits = new HashMap<>();
    private final List<SplitWatermarks<T>> splitList = new ArrayList<>();
    private SplitWatermarks<T> defaultSplit;
    private long emittedWatermark = Long.MIN_VALUE;
    private Runnable beforeWatermark = () -> {};
    private boolean idle;

    public SourceOperator(
            SourceReader<T, SourceSplit> reader,
            WatermarkStrategy<T> strategy,
            BadRecordPolicy badRecordPolicy,
            OperatorContext context,
            Output<T> output) {
        this.reader = reader;
        this.strategy = strategy;
        this.badRecordPolicy = badRecordPolicy;
        this.context = context;
        this.output = output;
        this.metrics = context.metrics();
        this.assigner = strategy.timestampAssigner();
        this.idleTimeoutMillis = strategy.idleTimeout() == null ? -1 : strategy.idleTimeout().toMillis();
        this.clock = context.clock();
    }

    /**
     * Before {@link #start}, when the job resumes from a checkpoint: the watermark this subtask had emitted
     * there. It is emitted at once, and the combined watermark of the splits (whose generators start afresh)
     * is not emitted again until it passes it.
     */
    public void restoreWatermark(long watermark) {
        if (watermark > emittedWatermark && watermark != Long.MAX_VALUE) {
            emittedWatermark = watermark;
            metrics.watermark(watermark);
            output.emitWatermark(watermark);
        }
    }

    /** The watermark this subtask emitted last ({@code Long.MIN_VALUE}: none yet). */
    public long emittedWatermark() {
        return emittedWatermark;
    }

    /**
     * Hands the reader its first splits; {@code noMoreSplits}: the source has a fixed set of splits (no enumerator),
     * so the reader is told at once that no more will come.
     */
    public void start(List<SourceSplit> assigned, boolean noMoreSplits) {
        addSplits(assigned);
        if (noMoreSplits) {
            reader.noMoreSplits();
        }
    }

    /** Splits the enumerator assigned while the job runs. */
    public void addSplits(List<SourceSplit> assigned) {
        reader.addSplits(assigned);
        long now = clock.millis();
        for (SourceSplit s : assigned) {
            SplitWatermarks<T> state = splitState(s.splitId());
            state.lastActivity = now;
            state.released = false;
        }
    }

    /** Splits the enumerator took away: the reader drops them and they no longer hold back the watermark. */
    public void removeSplits(List<String> splitIds) {
        reader.removeSplits(splitIds);
        for (String id : splitIds) {
            SplitWatermarks<T> s = splits.remove(id);
            if (s != null) {
                splitList.remove(s);
            }
        }
    }

    /** The enumerator will assign no more splits to this subtask. */
    public void noMoreSplits() {
        reader.noMoreSplits();
    }

    /** The checkpoint completed; the reader may commit upstream. */
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        reader.notifyCheckpointComplete(checkpointId);
    }

    /** After a poll found nothing: the reader's estimate of nanoseconds until records come, or -1. */
    public long nanosUntilAvailable() {
        return reader.nanosUntilAvailable();
    }

    /** Reads what is available now; returns the reader's status. */
    public InputStatus poll() throws Exception {
        InputStatus status = reader.pollNext(this);
        if (status == InputStatus.END_OF_INPUT) {
            return status;
        }
        updateWatermark(clock.millis());
        return status;
    }

    /** Recomputes the combined watermark and idleness; emits what changed. */
    void updateWatermark(long now) {
        long min = Long.MAX_VALUE;
        boolean anyActive = false;
        for (int i = 0; i < splitList.size(); i++) {
            SplitWatermarks<T> s = splitList.get(i);
            if (s.released) {
                continue;
            }
            s.endPoll();
            s.generator.onPeriodicEmit(s);
            if (!s.idle && idleTimeoutMillis > 0 && now - s.lastActivity >= idleTimeoutMillis) {
                s.idle = true;
            }
            if (!s.idle) {
                anyActive = true;
                min = Math.min(min, s.watermark);
            }
        }
        if (!anyActive) {
            // all splits idle (or none assigned): stop holding back downstream watermarks
            idle = idleTimeoutMillis > 0 || splitList.isEmpty();
            return;
        }
        idle = false;
        if (min > emittedWatermark && min != Long.MAX_VALUE) {
            emittedWatermark = min;
            metrics.watermark(min);
            beforeWatermark.run();
            output.emitWatermark(min);
        }
    }

    /** Run just before each watermark goes into the chain (the task marks its writers; see {@code RecordWriter}). */
    public void beforeWatermark(Runnable hook) {
        this.beforeWatermark = hook;
    }

    /** Whether every split is idle; the task tells downstream so that they do not wait for this subtask. */
    public boolean isIdle() {
        return idle;
    }

    public List<SourceSplit> snapshotSplits(long checkpointId) {
        return reader.snapshotState(checkpointId);
    }

    public void close() throws Exception {
        reader.close();
    }

    // ---- ReaderOutput, called by the reader during pollNext ----

    @Override
    public void collect(T value) {
        defaultSplit().collect(value, Long.MIN_VALUE);
    }

    @Override
    public void collect(T value, long timestamp) {
        defaultSplit().collect(value, timestamp);
    }

    @Override
    public SplitOutput<T> split(String splitId) {
        return splitState(splitId);
    }

    @Override
    public void releaseSplit(String splitId) {
        SplitWatermarks<T> s = splits.get(splitId);
        if (s != null) {
            s.released = true;
        }
    }

    @Override
    public void reportBadRecord(BadRecord bad) {
        metrics.badRecords++;
        switch (badRecordPolicy) {
            case FAIL -> throw new BadInputException("source '" + context.operatorName() + "' read bad input at " + bad.location()
                    + ": " + bad.reason() + " (raw: " + abbreviate(bad.rawText()) + "); set the source's bad-record policy to SKIP or"
                    + " DEAD_LETTER to keep going");
            case SKIP -> { }
            case DEAD_LETTER -> output.emit(BadRecord.DEAD_LETTERS, bad, Long.MIN_VALUE);
            default -> throw new IllegalStateException("unknown policy " + badRecordPolicy);
        }
    }

    private static String abbreviate(String s) {
        return s == null ? "null" : s.length() > 200 ? s.substring(0, 200) + "…" : s;
    }

    private SplitWatermarks<T> defaultSplit() {
        if (defaultSplit == null) {
            // a reader that emits without split ids: the assigned splits it never emits through must not
            // hold back the watermark
            splitList.removeIf(s -> !s.used);
            splits.values().removeIf(s -> !s.used);
            defaultSplit = splitState(DEFAULT_SPLIT);
        }
        return defaultSplit;
    }

    private SplitWatermarks<T> splitState(String id) {
        SplitWatermarks<T> s = splits.get(id);
        if (s == null) {
            s = new SplitWatermarks<>(this, strategy.createGenerator());
            s.lastActivity = clock.millis();
            splits.put(id, s);
            splitList.add(s);
        }
        return s;
    }

    void emitRecord(T value, long sourceTimestamp, SplitWatermarks<T> split) {
        long ts;
        if (assigner == null) {
            ts = sourceTimestamp;
        } else {
            try {
                ts = assigner.extractTimestamp(value, sourceTimestamp);
            } catch (Exception e) {
                throw UserFunctionException.of(context, value, e);
            }
        }
        split.generator.onEvent(value, ts, split);
        output.emit(value, ts);
    }

    Clock clock() {
        return clock;
    }
}
