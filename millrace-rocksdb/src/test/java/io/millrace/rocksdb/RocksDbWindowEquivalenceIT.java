package io.millrace.rocksdb;

import io.millrace.api.PipelineConfig;
import io.millrace.verify.WindowEquivalenceIT;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Core's window equivalence rounds (tumbling, sliding, session; disorder, lateness, late output) with every window on RocksDB. */
class RocksDbWindowEquivalenceIT extends WindowEquivalenceIT {
    @TempDir
    Path rocksDbDirectory;

    @Override
    protected PipelineConfig onBackend(PipelineConfig config) {
        return TestBackends.onRocksDb(config, rocksDbDirectory);
    }
}
