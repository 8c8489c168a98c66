package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.PipelineConfig;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core's in-process recovery (a user function throws once, the job restarts from its checkpoint, every result is
 * committed exactly once) with state in RocksDB, restored from RocksDB checkpoints; every RocksDB working directory
 * is gone at the end.
 */
class RocksDbRecoveryIT extends ExactlyOnceRecoveryIT {
    @TempDir
    Path rocksDbDirectory;

    @Override
    protected PipelineConfig onBackend(PipelineConfig config) {
        return TestBackends.onRocksDb(config, rocksDbDirectory);
    }

    @Override
    protected void afterJob() throws IOException {
        try (Stream<Path> left = Files.list(rocksDbDirectory)) {
            assertThat(left).as("RocksDB working directories after the job").isEmpty();
        }
    }
}
