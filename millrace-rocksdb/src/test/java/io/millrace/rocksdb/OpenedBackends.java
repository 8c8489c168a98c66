package io.millrace.rocksdb;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyGroups;
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

    /** Restores a checkpoint or snapshot into a backend. */
    @FunctionalInterface
    interface Restore {
        void into(KeyedStateBackend target) throws Exception;
    }

    /**
     * Two fresh RocksDB backends owning key groups 0–63 and 64–127 of 128 (a rescale from one subtask to two),
     * each restored by {@code from}.
     */
    List<RocksDbKeyedStateBackend> halves(Path directory, Clock clock, int cacheEntries, Restore from) throws Exception {
        List<RocksDbKeyedStateBackend> halves = List.of(rocksDb(directory, clock, new KeyGroupRange(0, 63), cacheEntries),
                rocksDb(directory, clock, new KeyGroupRange(64, 127), cacheEntries));
        for (RocksDbKeyedStateBackend half : halves) {
            from.into(half);
        }
        return halves;
    }

    /** Of {@link #halves}, the one owning {@code key}. */
    static RocksDbKeyedStateBackend ownerOf(List<RocksDbKeyedStateBackend> halves, Object key) {
        return halves.get(KeyGroups.keyGroupFor(key, 128) < 64 ? 0 : 1);
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
