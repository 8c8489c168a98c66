package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.KeyGroupRange;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many keys with a small managed-memory budget: the state spills to SST files, the shared cache stays
 * within its bound, and every sampled key reads back. The large version (20 million keys, 256 MB heap)
 * is {@link LargeStateSoakTest}.
 */
class RocksDbMemoryTest {
    private static final int KEYS = 600_000;
    @TempDir
    java.nio.file.Path base;

    @Test
    void manyKeys_withFourMegabytesOfManagedMemory_spillToDiskAndReadBack() {
        long budget = 4L << 20;
        RocksDbConfig config = TestBackends.CONFIG.withBaseDirectory(base).withManagedMemoryBytes(budget);
        try (RocksDbKeyedStateBackend backend = new RocksDbKeyedStateBackend("many-keys", new KeyGroupRange(0, 127), 128, new ManualClock(0), config)) {
            long written = LargeStateSoakTest.writeKeys(backend, KEYS);
            assertThat(written).isEqualTo(KEYS);
            assertThat(backend.sstBytes()).as("state left memory for SST files").isGreaterThan(budget);
            assertThat(backend.managedMemoryUsage()).isLessThanOrEqualTo(budget + budget / 10);
            ValueState<Long> counts = backend.stateStore().getState(new ValueStateDescriptor<>("count"));
            Random random = new Random(1);
            for (int i = 0; i < 2_000; i++) {
                long k = random.nextInt(KEYS);
                backend.setCurrentKey(k);
                assertThat(counts.value()).isEqualTo(k % 1000);
            }
            assertThat(backend.managedMemoryUsage()).isLessThanOrEqualTo(budget + budget / 10);
        }
    }
}
