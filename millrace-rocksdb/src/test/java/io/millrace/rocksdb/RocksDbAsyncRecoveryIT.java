package io.millrace.rocksdb;

import io.millrace.api.PipelineConfig;
import io.millrace.verify.AsyncRecoveryIT;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core's async I/O under failures, restarts and a resume at another parallelism, with the windows behind the async
 * operator in RocksDB: the records in flight come back from the operator's state whatever the backend.
 */
class RocksDbAsyncRecoveryIT extends AsyncRecoveryIT {
    @TempDir
    Path rocksDbDirectory;

    @Override
    protected PipelineConfig onBackend(PipelineConfig config) {
        return TestBackends.onRocksDb(config, rocksDbDirectory);
    }
}
