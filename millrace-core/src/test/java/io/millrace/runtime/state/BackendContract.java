package io.millrace.runtime.state;

import io.millrace.api.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/**
 * Base of the state backend contract tests: a subclass says how to create the backend under test (heap,
 * RocksDB), and every backend a test creates through {@link #backend} is closed after it.
 */
public abstract class BackendContract {
    private final List<KeyedStateBackend> created = new ArrayList<>();

    /** Creates a fresh backend of the implementation under test. */
    protected abstract KeyedStateBackend createBackend(KeyGroupRange range, int maxParallelism, Clock clock);

    /** Creates a backend that is closed after the test. */
    protected final KeyedStateBackend backend(KeyGroupRange range, int maxParallelism, Clock clock) {
        KeyedStateBackend b = createBackend(range, maxParallelism, clock);
        created.add(b);
        return b;
    }

    /** {@code b}, made by the test itself, closed after the test like those of {@link #backend}. */
    protected final KeyedStateBackend closedAfterTest(KeyedStateBackend b) {
        created.add(b);
        return b;
    }

    @AfterEach
    public final void closeBackends() {
        for (KeyedStateBackend b : created) {
            b.close();
        }
        created.clear();
    }
}
