package io.millrace.rocksdb;

import io.millrace.api.PipelineConfig;
import io.millrace.verify.BroadcastStateRecoveryIT;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core's broadcast-state job under failures, restores from checkpoints and a resume at another parallelism, with the
 * keyed side's state (waiting readings, timers) in RocksDB and restored from RocksDB checkpoints; the broadcast state
 * itself is operator state, stored alike on both backends.
 */
class RocksDbBroadcastStateRecoveryIT extends BroadcastStateRecoveryIT {
    @TempDir
    Path rocksDbDirectory;

    @Override
    protected PipelineConfig onBackend(PipelineConfig config) {
        return TestBackends.onRocksDb(config, rocksDbDirectory);
    }
}
