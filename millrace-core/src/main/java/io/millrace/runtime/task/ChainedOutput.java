package io.millrace.runtime.task;

import io.millrace.api.OutputTag;
import io.millrace.operator.OneInputOperator;
import io.millrace.operator.OperatorMetricGroup;
import io.millrace.operator.Output;

/** Hands records straight to the next operator of the chain: a method call, no queue. */
final class ChainedOutput<T> implements Output<T> {
    private final OneInputOperator<T, ?> next;
    private final OperatorMetricGroup from;
    private final OperatorMetricGroup to;

    ChainedOutput(OneInputOperator<T, ?> next, OperatorMetricGroup from, OperatorMetricGroup to) {
        this.next = next;
        this.from = from;
        this.to = to;
    }

    @Override
    public void emit(T value, long timestamp) {
        from.recordsOut++;
        to.recordsIn++;
        try {
            next.processRecord(value, timestamp);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new OperatorFailure(to.operator(), e);
        }
    }

    @Override
    public <X> void emit(OutputTag<X> tag, X value, long timestamp) {
        // a chained consumer of the main output ignores side outputs; the router sends those
    }

    @Override
    public void emitWatermark(long watermark) {
        try {
            next.processWatermark(watermark);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new OperatorFailure(to.operator(), e);
        }
    }
}
