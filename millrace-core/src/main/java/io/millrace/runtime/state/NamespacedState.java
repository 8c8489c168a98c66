package io.millrace.runtime.state;

import java.util.function.BiConsumer;

/**
 * Internal state of the current key, further split by a namespace (a window, a slice). Used by window
 * operators; user state is the special case of one namespace. Values are stored by reference: callers
 * may mutate a value they got and need not put it back.
 */
public interface NamespacedState<N, V> {
    V get(N namespace);

    /**
     * The value of {@code namespace}, which the caller will not change in place (for example a window firing,
     * which only reads its slices), so that a backend that caches values need not write it back. The default
     * is {@link #get}.
     */
    default V read(N namespace) {
        return get(namespace);
    }

    void put(N namespace, V value);

    void remove(N namespace);

    /** Visits every namespace of the current key. The action must not change this state. */
    void forEach(BiConsumer<N, V> action);

    /** Removes every namespace of the current key. */
    void clear();
}
