package io.millrace.runtime.window;

import io.millrace.api.plan.OperatorSpec;
import io.millrace.api.window.WindowSpec;

/**
 * A window whose input is {@link PartialAggregate}s from {@link LocalWindowAggregator}s instead of records: each
 * partial is folded into its slice's value with the reduce function or the aggregate function's {@code merge}.
 * Made by {@link LocalWindowAggregation}; everything else, including its state, is that of {@code window}.
 */
record PartialWindowSpec(WindowSpec window) implements OperatorSpec {
    @Override
    public String defaultName() {
        return window.defaultName();
    }

    @Override
    public boolean keyed() {
        return true;
    }
}
