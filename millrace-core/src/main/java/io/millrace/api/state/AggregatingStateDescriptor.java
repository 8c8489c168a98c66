package io.millrace.api.state;

import io.millrace.api.functions.AggregateFunction;
import java.util.Objects;

/** Describes an {@link AggregatingState}. */
public final class AggregatingStateDescriptor<IN, ACC, OUT> extends StateDescriptor<AggregatingState<IN, OUT>> {
    private final AggregateFunction<IN, ACC, OUT> function;

    public AggregatingStateDescriptor(String name, AggregateFunction<IN, ACC, OUT> function) {
        super(name);
        this.function = Objects.requireNonNull(function, "function");
    }

    public AggregateFunction<IN, ACC, OUT> function() {
        return function;
    }

    @Override
    public Kind kind() {
        return Kind.AGGREGATING;
    }
}
