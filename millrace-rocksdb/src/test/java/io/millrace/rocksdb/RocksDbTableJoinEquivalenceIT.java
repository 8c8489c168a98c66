package io.millrace.rocksdb;

import io.millrace.api.PipelineConfig;
import io.millrace.verify.TableJoinEquivalenceIT;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Core's temporal and changelog join equivalence rounds with the joins' state in RocksDB. */
class RocksDbTableJoinEquivalenceIT extends TableJoinEquivalenceIT {
    @TempDir
    Path rocksDbDirectory;

    @Override
    protected PipelineConfig onBackend(PipelineConfig config) {
        return TestBackends.onRocksDb(config, rocksDbDirectory);
    }
}
