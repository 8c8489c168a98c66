package io.millrace.api.state;

import java.util.List;

/**
 * A list per key; {@link #get()} is an empty iterable when absent or expired, and read-only. Whether an iterable
 * obtained before an {@link #add} or {@link #update} shows the change is not defined (it differs between
 * backends): call {@code get()} again after changing the list.
 */
public interface ListState<T> extends State {
    Iterable<T> get();

    void add(T value);

    void addAll(List<T> values);

    void update(List<T> values);
}
