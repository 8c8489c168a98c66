package io.millrace.runtime.broadcast;

import io.millrace.api.functions.Collector;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.operator.AbstractStreamOperator;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.Output;
import io.millrace.operator.TwoInputOperator;
import java.io.Serializable;
import java.util.List;

/**
 * What both broadcast operators share: input 0 is the data stream, input 1 the broadcast stream; the broadcast states
 * (created at open, filled from the restored items), their snapshot, and a collector that emits with the timestamp of
 * the record or timer being processed. Task thread only.
 */
abstract class BroadcastOperatorBase<A, B, OUT> extends AbstractStreamOperator<OUT> implements TwoInputOperator<A, B, OUT> {
    private final List<MapStateDescriptor<?, ?>> descriptors;
    private List<Serializable> restored = List.of();
    protected BroadcastStates states;
    protected final TimestampedCollector collector = new TimestampedCollector();
    /** The timestamp of the record or timer being processed. */
    protected long timestamp;

    BroadcastOperatorBase(List<MapStateDescriptor<?, ?>> descriptors) {
        this.descriptors = List.copyOf(descriptors);
    }

    @Override
    public void restoreOperatorState(List<Serializable> items) {
        restored = List.copyOf(items);
    }

    @Override
    public void open(OperatorContext context, Output<OUT> output) throws Exception {
        super.open(context, output);
        states = new BroadcastStates(descriptors, context.operatorName());
        states.restore(restored);
        restored = List.of();
    }

    /** Subtask 0 stores the broadcast states; the others, which hold the same, store nothing. */
    @Override
    public List<? extends Serializable> snapshotOperatorState(long checkpointId) throws Exception {
        return states.snapshot(context.subtaskIndex());
    }

    protected final void prepare(long recordTimestamp) {
        timestamp = recordTimestamp;
    }

    protected final long processingTime() {
        return context.clock().millis();
    }

    /** Emits with the timestamp of the record or timer being processed; reused. */
    final class TimestampedCollector implements Collector<OUT> {
        @Override
        public void collect(OUT value) {
            output.emit(value, timestamp);
        }
    }
}
