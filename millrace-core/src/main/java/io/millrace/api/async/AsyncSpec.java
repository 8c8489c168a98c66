package io.millrace.api.async;

import io.millrace.api.plan.OperatorSpec;
import java.util.Objects;

/** The logical form of an asynchronous operator: the function and its options. Built by {@link AsyncDataStream}. */
public record AsyncSpec<IN, OUT>(AsyncFunction<IN, OUT> function, AsyncOptions options) implements OperatorSpec {
    public AsyncSpec {
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(options, "options");
    }

    @Override
    public String defaultName() {
        return options.mode() == AsyncOptions.OutputMode.ORDERED ? "orderedWait" : "unorderedWait";
    }
}
