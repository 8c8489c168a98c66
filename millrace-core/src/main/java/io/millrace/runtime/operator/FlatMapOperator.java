package io.millrace.runtime.operator;

import io.millrace.api.functions.Collector;
import io.millrace.api.functions.FlatMapFunction;
import io.millrace.operator.AbstractStreamOperator;
import io.millrace.operator.OneInputOperator;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.Output;
import io.millrace.operator.UserFunctionException;

/** Applies a {@link FlatMapFunction}; every result keeps the record's timestamp. */
public final class FlatMapOperator<I, O> extends AbstractStreamOperator<O> implements OneInputOperator<I, O>, Collector<O> {
    private final FlatMapFunction<I, O> function;
    private long timestamp;

    public FlatMapOperator(FlatMapFunction<I, O> function) {
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
            function.flatMap(value, this);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
    }

    @Override
    public void collect(O value) {
        output.emit(value, timestamp);
    }

    @Override
    public void close() throws Exception {
        UserFunctions.close(function);
    }
}
