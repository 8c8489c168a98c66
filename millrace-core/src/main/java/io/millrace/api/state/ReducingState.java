package io.millrace.api.state;

/** Folds added values with a reduce function; {@link #get()} is null when empty. */
public interface ReducingState<T> extends State {
    T get();

    void add(T value);
}
