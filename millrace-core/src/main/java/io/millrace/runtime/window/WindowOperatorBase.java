package io.millrace.runtime.window;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.KeySelector;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.time.Clock;
import io.millrace.api.time.TimeDomain;
import io.millrace.api.window.SessionWindows;
import io.millrace.api.window.TimeWindows;
import io.millrace.api.window.WindowSpec;
import io.millrace.operator.AbstractStreamOperator;
import io.millrace.operator.KeyedInput;
import io.millrace.operator.OneInputOperator;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.Output;
import io.millrace.operator.UserFunctionException;
import io.millrace.runtime.operator.InternalOperatorContext;
import io.millrace.runtime.operator.UserFunctions;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.KeyedStateBackend;

/**
 * What every window operator shares: keying each record, its time (event timestamp or pipeline clock),
 * late records, the window function's lifecycle, and passing watermarks and processing time to the keyed
 * state backend, whose timers call back into the subclass. Task thread only.
 */
abstract class WindowOperatorBase extends AbstractStreamOperator<Object> implements OneInputOperator<Object, Object>, KeyedInput<Object> {
    protected final WindowSpec spec;
    protected final boolean eventTime;
    /** Whether records are placed by their event timestamp (time windows and sessions in event time). */
    private final boolean placedByTimestamp;
    /** Allowed lateness in ms; 0 for processing time. */
    protected final long lateness;
    protected final WindowContents<Object, Object> contents;
    private final OutputTag<Object> lateTag;
    /** Whether the input is {@link PartialAggregate}s. */
    final boolean partials;
    protected KeyedStateBackend backend;
    protected WindowEmission emission;
    private KeySelector<Object, Object> keySelector;
    private Clock clock;
    private boolean functionOpen;
    /** The last processing time the runtime reported; windows up to it have fired. */
    protected long processingTime = Long.MIN_VALUE;
    /** The key of the record being processed and its key group (set before {@link #onRecord}). */
    protected Object recordKey;
    protected int recordKeyGroup;

    WindowOperatorBase(WindowSpec spec) {
        this(spec, false);
    }

    /** {@code partials}: the input is {@link PartialAggregate}s of a {@link LocalWindowAggregator}, not records. */
    @SuppressWarnings("unchecked")
    WindowOperatorBase(WindowSpec spec, boolean partials) {
        this.spec = spec;
        this.eventTime = spec.assigner().timeDomain() == TimeDomain.EVENT_TIME;
        this.placedByTimestamp = eventTime && (spec.assigner() instanceof TimeWindows || spec.assigner() instanceof SessionWindows);
        this.lateness = eventTime ? spec.allowedLatenessMillis() : 0;
        WindowContents<Object, Object> folded = WindowContents.of(spec.reducer(), spec.aggregator());
        this.contents = partials
                ? new WindowContents.OfPartials(folded, spec.reducer() == null ? Packing.of(spec.aggregator()) : null)
                : folded;
        this.partials = partials;
        this.lateTag = (OutputTag<Object>) spec.lateDataTag();
    }

    @Override
    public void open(OperatorContext context, Output<Object> output) throws Exception {
        super.open(context, output);
        backend = InternalOperatorContext.backendOf(context);
        if (backend == null) {
            throw new IllegalStateException("window operator '" + context.operatorName() + "' needs keyed state: its input must be keyed");
        }
        keySelector = context.keySelector(0);
        clock = context.clock();
        emission = new WindowEmission(output, spec.windowFunction(), this::currentProcessingTime);
        openState();
        ProcessWindowFunction<?, ?, ?, ?> function = spec.windowFunction();
        if (function != null) {
            function.open(UserFunctions.runtimeContext(context));
            functionOpen = true;
        }
    }

    /** Creates the operator's states and timer services; the backend is set. */
    abstract void openState() throws Exception;

    @Override
    public final void processRecord(Object value, long timestamp) {
        try {
            Object key = keySelector.getKey(value);
            onKeyedRecord(key, KeyGroups.keyGroupFor(key, context.maxParallelism()), value, timestamp);
        } catch (Exception e) {
            throw UserFunctionException.of(context, value, e);
        }
    }

    @Override
    public final void processKeyedRecord(Object key, int keyGroup, Object value, long timestamp) {
        try {
            onKeyedRecord(key, keyGroup, value, timestamp);
        } catch (Exception e) {
            throw UserFunctionException.of(context, value, e);
        }
    }

    private void onKeyedRecord(Object key, int keyGroup, Object value, long timestamp) throws Exception {
        backend.setCurrentKey(key, keyGroup);
        recordKey = key;
        recordKeyGroup = keyGroup;
        long time;
        if (placedByTimestamp) {
            if (timestamp == Long.MIN_VALUE) {
                throw withoutTimestamp(context.operatorName());
            }
            time = timestamp;
        } else {
            time = eventTime ? timestamp : Math.max(clock.millis(), processingTime + 1);
        }
        onRecord(value, timestamp, time);
    }

    /** The failure of an event-time window operator (or its local aggregator) given a record without a timestamp. */
    static IllegalStateException withoutTimestamp(String operatorName) {
        return new IllegalStateException("window operator '" + operatorName + "' got a record without an event timestamp: "
                + "assign timestamps with a WatermarkStrategy, or use processing-time windows (inProcessingTime())");
    }

    /**
     * One record with the current key set; {@code time} is its event time, or its arrival time by the clock but
     * always after the last processing time reported (so a processing-time record is never late), or for global
     * and count windows its timestamp.
     */
    abstract void onRecord(Object value, long timestamp, long time) throws Exception;

    /**
     * The processing time now, for triggers and window functions: the clock's, but never before the last
     * processing time reported. A restored operator learns the latter only at the next report, so this never
     * answers {@code Long.MIN_VALUE} (from which a trigger would schedule timers ages in the past).
     */
    final long currentProcessingTime() {
        return Math.max(clock.millis(), processingTime);
    }

    /** The time up to which windows have fired: the watermark, or the last processing time. */
    protected final long firedUpTo() {
        return eventTime ? currentWatermark : processingTime;
    }

    /** Whether a window with this max timestamp is gone: fired and past its allowed lateness. */
    protected final boolean expired(long maxTimestamp) {
        return maxTimestamp != Long.MAX_VALUE && cleanupTime(maxTimestamp) <= firedUpTo();
    }

    /** When the state of a window with this max timestamp is removed. */
    protected final long cleanupTime(long maxTimestamp) {
        long t = maxTimestamp + lateness;
        return t < maxTimestamp ? Long.MAX_VALUE : t;
    }

    /**
     * A record too late for all its windows: to the side output if set, else dropped; counted either way. A late
     * {@link PartialAggregate} (never with a side output) is dropped and counted as the records it folds.
     */
    protected final void late(Object value, long timestamp) {
        if (lateTag != null) {
            output.emit(lateTag, value, timestamp);
            metrics.lateRecordsDiverted++;
        } else {
            metrics.lateRecordsDropped += partials ? ((PartialAggregate) value).records() : 1;
        }
    }

    /**
     * The time up to which windows fire moved from {@code before} to {@code now} (the watermark in event time,
     * the processing time otherwise), after due timers fired and before the watermark is forwarded. For
     * operators that fire windows without timers; the default does nothing.
     */
    void onTimeAdvanced(long before, long now) throws Exception {}

    /**
     * The earliest event-time timer of the backend, for operators that fire windows by timers only (a lower watermark
     * is only noted and passed on); every watermark before opening. Operators that fire without timers
     * ({@link #onTimeAdvanced}) answer for themselves ({@link SliceTableWindowOperator}).
     */
    @Override
    public long watermarkToAct() {
        return backend == null ? Long.MIN_VALUE : backend.nextEventTimerTime();
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        long before = currentWatermark;
        currentWatermark = watermark;
        try {
            backend.advanceWatermark(watermark);
            if (eventTime) {
                onTimeAdvanced(before, watermark);
            }
        } catch (Exception e) {
            throw UserFunctionException.of(context, "window timer of key " + backend.currentKey() + " at watermark " + watermark, e);
        }
        super.processWatermark(watermark);
    }

    @Override
    public void advanceProcessingTime(long now) throws Exception {
        long before = processingTime;
        processingTime = now;
        try {
            backend.advanceProcessingTime(now);
            if (!eventTime) {
                onTimeAdvanced(before, now);
            }
        } catch (Exception e) {
            throw UserFunctionException.of(context, "window timer of key " + backend.currentKey() + " at processing time " + now, e);
        }
    }

    @Override
    public void close() throws Exception {
        if (functionOpen) {
            functionOpen = false;
            spec.windowFunction().close();
        }
    }
}
