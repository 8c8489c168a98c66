package io.millrace.rocksdb;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The backends a test opens, closed after each test: register with
 * {@code @RegisterExtension final OpenedBackends backends = new OpenedBackends();}.
 */
final class OpenedBackends implements AfterEachCallback {
    private final List<KeyedStateBackend> open = new ArrayList<>();

    /** A RocksDB backend of maxParallelism 128 with working directories under {@code directory}, the test memory budget and a state cache of {@code cacheEntries}. */
    RocksDbKeyedStateBackend rocksDb(Path directory, Clock clock, KeyGroupRange range, int cacheEntries) {
        return track(new RocksDbKeyedStateBackend("op", range, 128, clock,
                TestBackends.CONFIG.withBaseDirectory(directory).withCacheEntries(cacheEntries)));
    }

    /** Closes {@code backend} after the test. */
    <B extends KeyedStateBackend> B track(B backend) {
        open.add(backend);
        return backend;
    }

    /** Closes {@code backend} now. */
    void close(KeyedStateBackend backend) {
        open.remove(backend);
        backend.close();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        open.forEach(KeyedStateBackend::close);
        open.clear();
    }
}
