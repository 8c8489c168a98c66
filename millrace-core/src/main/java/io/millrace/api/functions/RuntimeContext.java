package io.millrace.api.functions;

import io.millrace.api.state.KeyedStateStore;
import io.millrace.api.time.Clock;

/** What a rich function can see of the subtask running it. */
public interface RuntimeContext {
    String operatorName();

    int subtaskIndex();

    int parallelism();

    int maxParallelism();

    /** Keyed state of the current key; only on keyed streams, otherwise throws IllegalStateException. */
    KeyedStateStore state();

    /** The pipeline's clock (processing time); the system clock unless the pipeline was given another. */
    default Clock clock() {
        return Clock.system();
    }
}
