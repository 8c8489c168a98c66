package io.millrace.rocksdb;

import io.millrace.api.table.TemporalJoinOperatorTest;
import io.millrace.testing.HarnessSetup;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core's TemporalJoinOperatorTest (restored after every input) with the temporal join's probe rows and versions in RocksDB; the seeded comparison in fewer,
 * shorter rounds, since every restore opens a RocksDB instance.
 */
class RocksDbTemporalJoinOperatorTest extends TemporalJoinOperatorTest {
    @TempDir
    Path rocksDbDirectory;

    @Override
    protected <H> HarnessSetup<H> onBackend(HarnessSetup<H> setup) {
        return setup.backend(RocksDbStateBackends.factory(TestBackends.CONFIG.withBaseDirectory(rocksDbDirectory)));
    }

    @Override
    protected int[] seededRoundsAndInputs() {
        return new int[] {3, 60};
    }
}
