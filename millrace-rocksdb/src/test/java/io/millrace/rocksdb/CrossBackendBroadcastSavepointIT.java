package io.millrace.rocksdb;

import io.millrace.api.PipelineConfig;
import io.millrace.verify.BroadcastStateRescaleIT;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core's broadcast-state rescale test with a change of state backend at the savepoint: parallelism 2 on the heap to 3
 * on RocksDB, and 3 on RocksDB to 1 on the heap. Every subtask must have the whole broadcast state after the restore,
 * and the results must equal an uninterrupted run's.
 */
class CrossBackendBroadcastSavepointIT extends BroadcastStateRescaleIT {
    @TempDir
    Path rocksDbDirectory;

    /** Case 0: heap, then RocksDB; case 1: RocksDB, then heap. */
    @Override
    protected PipelineConfig onBackend(PipelineConfig config, int run, int caseIndex) {
        return (run + caseIndex) % 2 == 1 ? TestBackends.onRocksDb(config, rocksDbDirectory.resolve("run-" + run)) : config;
    }
}
