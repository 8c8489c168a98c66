package io.millrace.runtime.state;

import io.millrace.api.time.Clock;

/** Creates the keyed state backend of one keyed operator subtask. */
@FunctionalInterface
public interface KeyedStateBackendFactory {
    KeyedStateBackend create(String operatorName, KeyGroupRange range, int maxParallelism, Clock clock);

    /**
     * The name of the backend this factory makes, as {@link StateBackendProvider#name()} gives it, for the plan's
     * choices that depend on the backend (the layout of time windows). The default, {@code unnamed}, makes the plan
     * choose what works on any backend.
     */
    default String backendName() {
        return "unnamed";
    }

    /** {@code factory} under the backend name {@code name} (see {@link #backendName}). */
    static KeyedStateBackendFactory named(String name, KeyedStateBackendFactory factory) {
        return new KeyedStateBackendFactory() {
            @Override
            public KeyedStateBackend create(String operatorName, KeyGroupRange range, int maxParallelism, Clock clock) {
                return factory.create(operatorName, range, maxParallelism, clock);
            }

            @Override
            public String backendName() {
                return name;
            }
        };
    }
}
