package io.millrace.runtime.plan;

import io.millrace.api.functions.FilterFunction;
import io.millrace.api.functions.FlatMapFunction;
import io.millrace.api.functions.MapFunction;
import io.millrace.api.functions.ProcessFunction;
import io.millrace.api.plan.OperatorSpec;
import io.millrace.api.plan.Specs;
import io.millrace.api.sink.Sink;
import io.millrace.api.sink.TwoPhaseCommitSink;
import io.millrace.operator.SpecLowering;
import io.millrace.operator.StreamOperator;
import io.millrace.runtime.operator.ClassCopies;
import io.millrace.runtime.operator.FilterOperator;
import io.millrace.runtime.operator.FlatMapOperator;
import io.millrace.runtime.operator.MapOperator;
import io.millrace.runtime.operator.ProcessOperator;
import io.millrace.runtime.operator.SinkOperator;
import io.millrace.runtime.operator.TimestampsOperator;
import io.millrace.runtime.operator.TwoPhaseCommitSinkOperator;
import java.lang.invoke.MethodHandles;

/** Lowers the stateless built-in specs of {@link Specs}. */
public final class BuiltInLowering implements SpecLowering {
    @Override
    public boolean handles(OperatorSpec spec) {
        return spec instanceof Specs.MapSpec
                || spec instanceof Specs.FilterSpec
                || spec instanceof Specs.FlatMapSpec
                || spec instanceof Specs.ProcessSpec
                || spec instanceof Specs.TimestampsSpec
                || spec instanceof Specs.SinkSpec;
    }

    @Override
    public StreamOperator<?> create(OperatorSpec spec) {
        if (spec instanceof Specs.MapSpec<?, ?> s) {
            return copyFor(MapOperator.class, MapFunction.class, s.function());
        } else if (spec instanceof Specs.FilterSpec<?> s) {
            return copyFor(FilterOperator.class, FilterFunction.class, s.function());
        } else if (spec instanceof Specs.FlatMapSpec<?, ?> s) {
            return copyFor(FlatMapOperator.class, FlatMapFunction.class, s.function());
        } else if (spec instanceof Specs.ProcessSpec<?, ?> s) {
            return copyFor(ProcessOperator.class, ProcessFunction.class, s.function());
        } else if (spec instanceof Specs.TimestampsSpec<?> s) {
            return new TimestampsOperator<>(s.watermarks());
        } else if (spec instanceof Specs.SinkSpec<?> s && s.sink() instanceof TwoPhaseCommitSink<?, ?> exactlyOnce) {
            return new TwoPhaseCommitSinkOperator<>(exactlyOnce);
        } else if (spec instanceof Specs.SinkSpec<?> s) {
            return copyFor(SinkOperator.class, Sink.class, s.sink());
        }
        throw new IllegalArgumentException("not a built-in spec: " + spec);
    }

    /**
     * An instance of {@code operator}'s copy for the class of {@code function} (the user function or sink it calls
     * per record; see {@link ClassCopies}), made by its constructor taking a {@code functionType}.
     */
    private static StreamOperator<?> copyFor(Class<?> operator, Class<?> functionType, Object function) {
        MethodHandles.Lookup lookup;
        try {
            lookup = MethodHandles.privateLookupIn(operator, MethodHandles.lookup());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("no access to " + operator.getName(), e);
        }
        return ClassCopies.newInstance(lookup, operator, StreamOperator.class, function.getClass(), new Class<?>[] {functionType}, function);
    }
}
