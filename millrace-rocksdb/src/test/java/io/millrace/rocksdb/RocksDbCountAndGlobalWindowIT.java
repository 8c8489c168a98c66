package io.millrace.rocksdb;

import io.millrace.api.PipelineConfig;
import io.millrace.verify.CountAndGlobalWindowIT;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Core's count windows and global windows (count and event-time triggers) under random runtimes, on RocksDB. */
class RocksDbCountAndGlobalWindowIT extends CountAndGlobalWindowIT {
    @TempDir
    Path rocksDbDirectory;

    @Override
    protected PipelineConfig onBackend(PipelineConfig config) {
        return TestBackends.onRocksDb(config, rocksDbDirectory);
    }
}
