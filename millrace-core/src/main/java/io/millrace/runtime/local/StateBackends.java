package io.millrace.runtime.local;

import io.millrace.runtime.state.KeyedStateBackendFactory;
import io.millrace.runtime.state.heap.HeapKeyedStateBackend;
import io.millrace.runtime.state.heap.HeapValues;

/** The state backends the local runtime can use. */
public final class StateBackends {
    private StateBackends() {}

    /** Keyed state on the JVM heap (the default), values kept as {@code state.heap.values: auto} decides. */
    public static KeyedStateBackendFactory heap() {
        return (operator, range, maxParallelism, clock) -> new HeapKeyedStateBackend(operator, range, maxParallelism, clock, HeapValues.AUTO);
    }
}
