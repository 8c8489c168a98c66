package io.millrace.rocksdb;

import io.millrace.runtime.broadcast.KeyedBroadcastProcessOperatorTest;
import io.millrace.testing.HarnessSetup;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core's KeyedBroadcastProcessOperatorTest (restored after every input) with the keyed side's state and timers in
 * RocksDB: applyToKeyedState lists the keys of RocksDB's column, the broadcast state stays operator state.
 */
class RocksDbKeyedBroadcastProcessOperatorTest extends KeyedBroadcastProcessOperatorTest {
    @TempDir
    Path rocksDbDirectory;

    @Override
    protected <H> HarnessSetup<H> onBackend(HarnessSetup<H> setup) {
        return setup.backend(RocksDbStateBackends.factory(TestBackends.CONFIG.withBaseDirectory(rocksDbDirectory)));
    }
}
