package io.millrace.api.state;

import io.millrace.api.functions.ReduceFunction;
import java.util.Objects;

/** Describes a {@link ReducingState}. */
public final class ReducingStateDescriptor<T> extends StateDescriptor<ReducingState<T>> {
    private final ReduceFunction<T> reducer;

    public ReducingStateDescriptor(String name, ReduceFunction<T> reducer) {
        super(name);
        this.reducer = Objects.requireNonNull(reducer, "reducer");
    }

    public ReduceFunction<T> reducer() {
        return reducer;
    }

    @Override
    public Kind kind() {
        return Kind.REDUCING;
    }
}
