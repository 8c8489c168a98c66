package io.millrace.runtime.window;

import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.KeySelector;
import io.millrace.api.functions.ReduceFunction;
import io.millrace.api.plan.OperatorSpec;
import io.millrace.api.window.TimeWindows;

/**
 * The {@link LocalWindowAggregator} in front of a window's keyed exchange: the window's layout, its reduce or
 * aggregate function (exactly one; a copy, not the window operator's instance), the key selector of the
 * exchange it replaces, and how many (key, slice) partials it may hold.
 */
record LocalWindowAggregateSpec(
        TimeWindows windows, ReduceFunction<?> reducer, AggregateFunction<?, ?, ?> aggregator, KeySelector<?, ?> keySelector, int maxKeys)
        implements OperatorSpec {

    LocalWindowAggregateSpec {
        if ((reducer == null) == (aggregator == null)) {
            throw new IllegalArgumentException("local window aggregation needs a reduce or an aggregate function");
        }
    }

    @Override
    public String defaultName() {
        return "local window aggregate";
    }
}
