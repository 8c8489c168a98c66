package io.millrace.rocksdb;

import io.millrace.api.PipelineConfig;
import io.millrace.runtime.window.LocalAggregationEquivalenceTest;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Core's local window aggregation equivalence (on == off) with the windows on RocksDB, which merges partials into slices read from RocksDB. */
class RocksDbLocalWindowAggregationTest extends LocalAggregationEquivalenceTest {
    @TempDir
    Path rocksDbDirectory;

    @Override
    protected PipelineConfig onBackend(PipelineConfig config) {
        return TestBackends.onRocksDb(config, rocksDbDirectory);
    }
}
