package io.millrace.api.state;

import java.util.List;

/** A list per key; {@link #get()} is an empty iterable when absent or expired. */
public interface ListState<T> extends State {
    Iterable<T> get();

    void add(T value);

    void addAll(List<T> values);

    void update(List<T> values);
}
