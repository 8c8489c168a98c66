package io.millrace.cep;

import io.millrace.rocksdb.RocksDbConfig;
import io.millrace.rocksdb.RocksDbStateBackends;
import io.millrace.testing.HarnessSetup;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PatternEquivalenceTest} with the pending events, the shared buffer and the partial matches in RocksDB; fewer
 * rounds, since every restore opens a RocksDB instance.
 */
class RocksDbPatternEquivalenceTest extends PatternEquivalenceTest {
    @TempDir
    Path rocksDbDirectory;

    @Override
    protected <H> HarnessSetup<H> onBackend(HarnessSetup<H> setup) {
        return setup.backend(RocksDbStateBackends.factory(
                RocksDbConfig.defaults().withBaseDirectory(rocksDbDirectory).withManagedMemoryBytes(32L << 20)));
    }

    @Override
    protected int[] roundsAndEvents() {
        return new int[] {3, 8};
    }
}
