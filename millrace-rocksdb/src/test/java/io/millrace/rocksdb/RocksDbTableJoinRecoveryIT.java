package io.millrace.rocksdb;

import io.millrace.api.PipelineConfig;
import io.millrace.verify.TableJoinRecoveryIT;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core's temporal and changelog joins under failures, restores from checkpoints and a resume at another parallelism, with
 * state in RocksDB and restored from RocksDB checkpoints.
 */
class RocksDbTableJoinRecoveryIT extends TableJoinRecoveryIT {
    @TempDir
    Path rocksDbDirectory;

    @Override
    protected PipelineConfig onBackend(PipelineConfig config) {
        return TestBackends.onRocksDb(config, rocksDbDirectory);
    }
}
