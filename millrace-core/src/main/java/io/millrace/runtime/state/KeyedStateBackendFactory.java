package io.millrace.runtime.state;

import io.millrace.api.time.Clock;

/** Creates the keyed state backend of one keyed operator subtask. */
@FunctionalInterface
public interface KeyedStateBackendFactory {
    KeyedStateBackend create(String operatorName, KeyGroupRange range, int maxParallelism, Clock clock);
}
