package io.millrace.rocksdb;

import io.millrace.api.PipelineConfig;
import io.millrace.runtime.checkpoint.RescaleIT;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Core's rescale through savepoints (2 to 1 to 3 subtasks: running counts, windows, timers) on RocksDB. */
class RocksDbRescaleIT extends RescaleIT {
    @TempDir
    Path rocksDbDirectory;

    @Override
    protected PipelineConfig onBackend(PipelineConfig config) {
        return TestBackends.onRocksDb(config, rocksDbDirectory);
    }
}
