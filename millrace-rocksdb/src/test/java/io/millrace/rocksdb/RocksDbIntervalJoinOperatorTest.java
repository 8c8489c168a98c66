package io.millrace.rocksdb;

import io.millrace.runtime.join.IntervalJoinOperatorTest;
import io.millrace.testing.HarnessSetup;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core's interval join operator tests (restored after every input) with both sides' rows and timers in RocksDB; the
 * seeded comparison in fewer, shorter rounds, since every restore opens a RocksDB instance.
 */
class RocksDbIntervalJoinOperatorTest extends IntervalJoinOperatorTest {
    @TempDir
    Path rocksDbDirectory;

    @Override
    protected <H> HarnessSetup<H> onBackend(HarnessSetup<H> setup) {
        return setup.backend(RocksDbStateBackends.factory(TestBackends.CONFIG.withBaseDirectory(rocksDbDirectory)));
    }

    @Override
    protected int[] seededRoundsAndRows() {
        return new int[] {3, 50};
    }
}
