package io.millrace.runtime.operator;

import io.millrace.api.functions.MapFunction;
import io.millrace.operator.AbstractStreamOperator;
import io.millrace.operator.OneInputOperator;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.Output;
import io.millrace.operator.UserFunctionException;

/** Applies a {@link MapFunction}; the result keeps the record's timestamp. */
public final class MapOperator<I, O> extends AbstractStreamOperator<O> implements OneInputOperator<I, O> {
    private final MapFunction<I, O> function;

    public MapOperator(MapFunction<I, O> function) {
        this.function = function;
    }

    @Override
    public void open(OperatorContext context, Output<O> output) throws Exception {
        super.open(context, output);
        UserFunctions.open(function, context);
    }

    @Override
    public void processRecord(I value, long timestamp) {
        O result;
        try {
            result = function.map(value);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
        output.emit(result, timestamp);
    }

    @Override
    public void close() throws Exception {
        UserFunctions.close(function);
    }
}
