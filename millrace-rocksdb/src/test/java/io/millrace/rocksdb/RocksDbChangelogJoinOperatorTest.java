package io.millrace.rocksdb;

import io.millrace.api.table.ChangelogJoinOperatorTest;
import io.millrace.testing.HarnessSetup;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core's ChangelogJoinOperatorTest (restored after every input) with both sides' rows of the changelog join in RocksDB; the seeded comparison in fewer,
 * shorter rounds, since every restore opens a RocksDB instance.
 */
class RocksDbChangelogJoinOperatorTest extends ChangelogJoinOperatorTest {
    @TempDir
    Path rocksDbDirectory;

    @Override
    protected <H> HarnessSetup<H> onBackend(HarnessSetup<H> setup) {
        return setup.backend(RocksDbStateBackends.factory(TestBackends.CONFIG.withBaseDirectory(rocksDbDirectory)));
    }

    @Override
    protected int[] seededRoundsAndChanges() {
        return new int[] {2, 30};
    }
}
