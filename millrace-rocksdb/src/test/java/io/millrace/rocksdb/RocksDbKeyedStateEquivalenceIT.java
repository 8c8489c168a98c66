package io.millrace.rocksdb;

import io.millrace.api.PipelineConfig;
import io.millrace.verify.KeyedStateEquivalenceIT;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Core's keyed state equivalence rounds (value, map, list state and event-time timers; union, connect) on RocksDB. */
class RocksDbKeyedStateEquivalenceIT extends KeyedStateEquivalenceIT {
    @TempDir
    Path rocksDbDirectory;

    @Override
    protected PipelineConfig onBackend(PipelineConfig config) {
        return TestBackends.onRocksDb(config, rocksDbDirectory);
    }
}
