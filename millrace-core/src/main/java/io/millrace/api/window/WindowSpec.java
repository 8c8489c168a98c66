package io.millrace.api.window;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.functions.ReduceFunction;
import io.millrace.api.plan.OperatorSpec;
import java.util.Objects;

/**
 * A keyed window operator as plain data. The contents of a window are folded by {@code reducer} or
 * {@code aggregator} (at most one), or kept as a list when both are null; {@code windowFunction}, if set,
 * turns them into output, else the folded value is the output.
 *
 * @param trigger null for the assigner's {@link WindowAssigner#defaultTrigger() default trigger}
 * @param allowedLatenessMillis how long after a window's end (by watermark) late records still update it
 * @param lateDataTag side output of records too late for every window they belong to; null drops them (counted)
 */
public record WindowSpec(
        WindowAssigner<?> assigner,
        Trigger<?, ?> trigger,
        long allowedLatenessMillis,
        OutputTag<?> lateDataTag,
        ReduceFunction<?> reducer,
        AggregateFunction<?, ?, ?> aggregator,
        ProcessWindowFunction<?, ?, ?, ?> windowFunction)
        implements OperatorSpec {

    public WindowSpec {
        Objects.requireNonNull(assigner, "assigner");
        if (allowedLatenessMillis < 0) {
            throw new IllegalArgumentException("allowed lateness must not be negative, was " + allowedLatenessMillis + " ms");
        }
        if (reducer != null && aggregator != null) {
            throw new IllegalArgumentException("a window has either a reduce or an aggregate function, not both");
        }
        if (reducer == null && aggregator == null && windowFunction == null) {
            throw new IllegalArgumentException("a window needs a reduce, aggregate or process window function");
        }
        if (trigger != null && assigner instanceof CountWindows) {
            throw new IllegalArgumentException("count windows fire by count; they take no trigger");
        }
        if (trigger instanceof PurgingTrigger && assigner instanceof TimeWindows tw && !tw.isTumbling()) {
            throw new IllegalArgumentException("a purging trigger cannot be used on sliding windows: their slices are shared");
        }
        if (trigger != null && assigner instanceof SessionWindows && !trigger.canMerge()) {
            throw new IllegalArgumentException("session windows merge, but trigger " + trigger + " cannot merge");
        }
    }

    /** The trigger that runs: the user's, or the assigner's default. */
    @SuppressWarnings("unchecked")
    public Trigger<Object, Window> effectiveTrigger() {
        return trigger == null ? assigner.defaultTrigger() : (Trigger<Object, Window>) trigger;
    }

    /** Whether the assigner's default trigger runs (which the runtime may implement without trigger calls). */
    public boolean usesDefaultTrigger() {
        return trigger == null || trigger == assigner.defaultTrigger();
    }

    @Override
    public String defaultName() {
        return "window";
    }

    @Override
    public boolean keyed() {
        return true;
    }
}
