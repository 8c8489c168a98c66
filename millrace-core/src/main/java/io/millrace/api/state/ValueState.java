package io.millrace.api.state;

/** One value per key; {@link #value()} is null when absent or expired. */
public interface ValueState<T> extends State {
    T value();

    void update(T value);
}
