package io.millrace.api.state;

/** Folds added values into an accumulator; {@link #get()} is the result, or null when empty. */
public interface AggregatingState<IN, OUT> extends State {
    OUT get();

    void add(IN value);
}
