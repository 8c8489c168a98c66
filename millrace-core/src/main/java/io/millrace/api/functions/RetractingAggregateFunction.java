package io.millrace.api.functions;

/**
 * An {@link AggregateFunction} that can also take a value out of its accumulator, so an aggregation over a
 * changelog stays correct when rows are updated or deleted: an update retracts the old row ({@code -U}) and adds
 * the new one ({@code +U}), a delete ({@code -D}) retracts the row.
 *
 * <p>Only aggregations over changelogs ({@link io.millrace.api.table.ChangelogAggregate}) require it and call
 * {@link #retract}; windows and other aggregations over append-only streams take any {@code AggregateFunction}
 * and never call it, so a function that cannot retract (a maximum without the values it saw) stays a plain
 * {@code AggregateFunction}.
 */
public interface RetractingAggregateFunction<IN, ACC, OUT> extends AggregateFunction<IN, ACC, OUT> {
    /**
     * Removes {@code value}, which {@link #add} received before, from {@code acc}; may update {@code acc} in place
     * and return it. Retracting every value added leaves an accumulator whose result is that of a fresh one. Called
     * on the operator's task thread, for the key of {@code value}, only while the key has at least one row.
     */
    ACC retract(IN value, ACC acc);
}
