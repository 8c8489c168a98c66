package io.millrace.runtime.window;

import io.millrace.api.window.WindowSpec;
import io.millrace.operator.KeyedInput;
import io.millrace.operator.OneInputOperator;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.Output;
import io.millrace.runtime.operator.InternalOperatorContext;
import io.millrace.runtime.state.heap.HeapKeyedStateBackend;

/**
 * Tumbling and sliding time windows with the default trigger, in the layout the plan's lowering chose for the
 * job's configured state backend ({@link WindowLowering}): on the heap backend the slice-major
 * {@link SliceTableWindowOperator}, on any other backend the timer-driven {@link SlicingWindowOperator} (a key's
 * slices in one value). Both keep the same logical state in savepoints ({@link SliceStore}), so a savepoint of
 * either restores into the other. Everything is passed on to the chosen operator; task thread only.
 */
final class TimeWindowOperator implements OneInputOperator<Object, Object>, KeyedInput<Object> {
    private final WindowSpec spec;
    private final boolean partials;
    private final boolean sliceTables;
    private WindowOperatorBase chosen;

    /** The slice-table layout of the default (heap) backend. */
    TimeWindowOperator(WindowSpec spec) {
        this(spec, false, true);
    }

    /**
     * {@code partials}: the input is {@link PartialAggregate}s of a {@link LocalWindowAggregator}, not records.
     * {@code sliceTables}: the heap backend's slice tables, else a key's slices in one value with timers.
     */
    TimeWindowOperator(WindowSpec spec, boolean partials, boolean sliceTables) {
        this.spec = spec;
        this.partials = partials;
        this.sliceTables = sliceTables;
    }

    /**
     * Opens the chosen layout. The slice tables need the heap backend: on another one the open fails naming the
     * operator and the backend, since the lowering was told another backend than the job runs on.
     */
    @Override
    public void open(OperatorContext context, Output<Object> output) throws Exception {
        if (sliceTables && !(InternalOperatorContext.backendOf(context) instanceof HeapKeyedStateBackend)) {
            throw new IllegalStateException("window operator '" + context.operatorName() + "' was planned with the heap"
                    + " backend's slice tables but runs on " + (InternalOperatorContext.backendOf(context) == null ? "no keyed state backend"
                    : InternalOperatorContext.backendOf(context).getClass().getSimpleName()) + ": lower it with the job's configuration");
        }
        chosen = sliceTables ? new SliceTableWindowOperator(spec, partials) : new SlicingWindowOperator(spec, partials);
        chosen.open(context, output);
    }

    /** The operator chosen at {@link #open}; null before. */
    WindowOperatorBase chosen() {
        return chosen;
    }

    @Override
    public void processRecord(Object value, long timestamp) {
        chosen.processRecord(value, timestamp);
    }

    @Override
    public void processKeyedRecord(Object key, int keyGroup, Object value, long timestamp) {
        chosen.processKeyedRecord(key, keyGroup, value, timestamp);
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        chosen.processWatermark(watermark);
    }

    @Override
    public long watermarkToAct() {
        return chosen.watermarkToAct();
    }

    @Override
    public void advanceProcessingTime(long now) throws Exception {
        chosen.advanceProcessingTime(now);
    }

    @Override
    public void endInput() throws Exception {
        chosen.endInput();
    }

    @Override
    public void close() throws Exception {
        if (chosen != null) {
            chosen.close();
        }
    }
}
