package io.millrace.runtime.state.heap;

import io.millrace.api.PipelineConfig;
import io.millrace.runtime.state.KeyedStateBackendFactory;
import io.millrace.runtime.state.StateBackendProvider;

/** The {@code heap} state backend, the default: keyed state in hash tables on the JVM heap. It has no options. */
public final class HeapStateBackendProvider implements StateBackendProvider {
    public static final String NAME = "heap";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public KeyedStateBackendFactory factory(PipelineConfig config) {
        return (operator, range, maxParallelism, clock) -> new HeapKeyedStateBackend(operator, range, maxParallelism, clock);
    }
}
