package io.millrace.runtime.operator;

import io.millrace.api.functions.FilterFunction;
import io.millrace.operator.AbstractStreamOperator;
import io.millrace.operator.OneInputOperator;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.Output;
import io.millrace.operator.UserFunctionException;

/** Passes on the records a {@link FilterFunction} accepts. */
public final class FilterOperator<T> extends AbstractStreamOperator<T> implements OneInputOperator<T, T> {
    private final FilterFunction<T> function;

    public FilterOperator(FilterFunction<T> function) {
        this.function = function;
    }

    @Override
    public void open(OperatorContext context, Output<T> output) throws Exception {
        super.open(context, output);
        UserFunctions.open(function, context);
    }

    @Override
    public void processRecord(T value, long timestamp) {
        boolean keep;
        try {
            keep = function.filter(value);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
        if (keep) {
            output.emit(value, timestamp);
        }
    }

    @Override
    public void close() throws Exception {
        UserFunctions.close(function);
    }
}
