package io.millrace.rocksdb;

import io.millrace.api.PipelineConfig;
import io.millrace.verify.JoinRecoveryIT;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core's joins under failures, restores from checkpoints and a resume at another parallelism, with the joins'
 * state in RocksDB and restored from RocksDB checkpoints.
 */
class RocksDbJoinRecoveryIT extends JoinRecoveryIT {
    @TempDir
    Path rocksDbDirectory;

    @Override
    protected PipelineConfig onBackend(PipelineConfig config) {
        return TestBackends.onRocksDb(config, rocksDbDirectory);
    }
}
