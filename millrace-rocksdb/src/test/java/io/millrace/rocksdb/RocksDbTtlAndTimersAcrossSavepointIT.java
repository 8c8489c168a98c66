package io.millrace.rocksdb;

import io.millrace.api.PipelineConfig;
import io.millrace.runtime.checkpoint.TtlAndTimersAcrossSavepointIT;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Core's TTL and pending timers across a savepoint and restore, on RocksDB. */
class RocksDbTtlAndTimersAcrossSavepointIT extends TtlAndTimersAcrossSavepointIT {
    @TempDir
    Path rocksDbDirectory;

    @Override
    protected PipelineConfig onBackend(PipelineConfig config) {
        return TestBackends.onRocksDb(config, rocksDbDirectory);
    }
}
