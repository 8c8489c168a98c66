package io.millrace.runtime.operator;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessFunction;
import io.millrace.operator.AbstractStreamOperator;
import io.millrace.operator.OneInputOperator;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.Output;
import io.millrace.operator.UserFunctionException;

/** Runs a {@link ProcessFunction} on a non-keyed stream. */
public final class ProcessOperator<I, O> extends AbstractStreamOperator<O>
        implements OneInputOperator<I, O>, Collector<O>, ProcessFunction.Context {
    private final ProcessFunction<I, O> function;
    private long timestamp;

    public ProcessOperator(ProcessFunction<I, O> function) {
        this.function = function;
    }

    @Override
    public void open(OperatorContext context, Output<O> output) throws Exception {
        super.open(context, output);
        UserFunctions.open(function, context);
    }

    @Override
    public void processRecord(I value, long timestamp) {
        this.timestamp = timestamp;
        try {
            function.processElement(value, this, this);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
    }

    @Override
    public void collect(O value) {
        output.emit(value, timestamp);
    }

    @Override
    public long timestamp() {
        return timestamp;
    }

    @Override
    public long currentWatermark() {
        return currentWatermark;
    }

    @Override
    public long currentProcessingTime() {
        return context.clock().millis();
    }

    @Override
    public <X> void output(OutputTag<X> tag, X value) {
        output.emit(tag, value, timestamp);
    }

    @Override
    public void close() throws Exception {
        UserFunctions.close(function);
    }
}
