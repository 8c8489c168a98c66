package io.millrace.runtime.local;

import io.millrace.runtime.state.KeyedStateBackendFactory;
import io.millrace.runtime.state.heap.HeapKeyedStateBackend;

/** The state backends the local runtime can use. */
public final class StateBackends {
    private StateBackends() {}

    /** Keyed state on the JVM heap (the default). */
    public static KeyedStateBackendFactory heap() {
        return (operator, range, maxParallelism, clock) -> new HeapKeyedStateBackend(operator, range, maxParallelism, clock);
    }
}
