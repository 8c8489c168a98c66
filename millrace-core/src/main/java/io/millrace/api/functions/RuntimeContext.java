package io.millrace.api.functions;

import io.millrace.api.state.KeyedStateStore;

/** What a rich function can see of the subtask running it. */
public interface RuntimeContext {
    String operatorName();

    int subtaskIndex();

    int parallelism();

    int maxParallelism();

    /** Keyed state of the current key; only on keyed streams, otherwise throws IllegalStateException. */
    KeyedStateStore state();
}
