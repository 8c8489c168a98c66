package io.millrace.rocksdb;

import io.millrace.api.PipelineConfig;
import io.millrace.verify.JoinEquivalenceIT;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Core's join equivalence rounds (interval and window joins; disorder, random parallelism, late rows) on RocksDB. */
class RocksDbJoinEquivalenceIT extends JoinEquivalenceIT {
    @TempDir
    Path rocksDbDirectory;

    @Override
    protected PipelineConfig onBackend(PipelineConfig config) {
        return TestBackends.onRocksDb(config, rocksDbDirectory);
    }
}
