package io.millrace.runtime.window;

import io.millrace.api.window.WindowSpec;
import io.millrace.runtime.operator.KeyedInput;
import io.millrace.runtime.operator.OneInputOperator;
import io.millrace.runtime.operator.OperatorContext;
import io.millrace.runtime.operator.Output;
import io.millrace.runtime.state.heap.HeapKeyedStateBackend;

/**
 * Tumbling and sliding time windows with the default trigger. The layout depends on the keyed state backend,
 * known only when the operator opens: on the heap backend the slice-major {@link SliceTableWindowOperator},
 * on any other backend the timer-driven {@link SlicingWindowOperator} (a key's slices in one value). Everything is
 * passed on to the chosen operator; task thread only.
 */
final class TimeWindowOperator implements OneInputOperator<Object, Object>, KeyedInput<Object> {
    private final WindowSpec spec;
    private final boolean partials;
    private WindowOperatorBase chosen;

    TimeWindowOperator(WindowSpec spec) {
        this(spec, false);
    }

    /** {@code partials}: the input is {@link PartialAggregate}s of a {@link LocalWindowAggregator}, not records. */
    TimeWindowOperator(WindowSpec spec, boolean partials) {
        this.spec = spec;
        this.partials = partials;
    }

    @Override
    public void open(OperatorContext context, Output<Object> output) throws Exception {
        chosen = context.keyedStateBackend() instanceof HeapKeyedStateBackend
                ? new SliceTableWindowOperator(spec, partials)
                : new SlicingWindowOperator(spec, partials);
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
