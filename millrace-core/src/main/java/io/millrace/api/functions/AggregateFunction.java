package io.millrace.api.functions;

/**
 * Incremental aggregation with a mutable or immutable accumulator.
 *
 * <p>{@link #add} may update {@code acc} in place and return it. {@link #merge} combines the accumulators
 * of two slices or two merged session windows; it must be associative. {@link #getResult} must not
 * modify the accumulator: a sliding window reads the same slice accumulators several times.
 */
public interface AggregateFunction<IN, ACC, OUT> extends java.io.Serializable {
    ACC createAccumulator();

    ACC add(IN value, ACC acc);

    OUT getResult(ACC acc);

    ACC merge(ACC a, ACC b);
}
