package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.KeyGroupRange;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * State much larger than the heap: by default 20 million keys with 256 MB of managed memory, meant to
 * run in a JVM with a 256 MB heap. Not part of the suite (tag "soak"); run it with
 * {@code mvn -o -q test -pl millrace-rocksdb -Dtest=LargeStateSoakTest -Dsurefire.excludedGroups=
 * -Drocksdb.test.argLine=-Xmx256m -Dmillrace.soak.keys=20000000} (see docs/state-backends.md).
 */
@Tag("soak")
class LargeStateSoakTest {

    /** Writes {@code keys} Long keys with value {@code key % 1000} into value state "count"; returns the keys written. */
    static long writeKeys(RocksDbKeyedStateBackend backend, long keys) {
        ValueState<Long> counts = backend.stateStore().getState(new ValueStateDescriptor<>("count"));
        for (long k = 0; k < keys; k++) {
            backend.setCurrentKey(k);
            counts.update(k % 1000);
        }
        return keys;
    }

    @Test
    void manyMoreKeysThanTheHeapHolds_runToCompletion_andReadBack() {
        long keys = Long.getLong("millrace.soak.keys", 20_000_000L);
        RocksDbConfig config = RocksDbConfig.defaults().withBaseDirectory(TestBackends.BASE);
        try (RocksDbKeyedStateBackend backend = new RocksDbKeyedStateBackend("soak", new KeyGroupRange(0, 127), 128, new ManualClock(0), config)) {
            writeKeys(backend, keys);
            ValueState<Long> counts = backend.stateStore().getState(new ValueStateDescriptor<>("count"));
            Random random = new Random(1);
            for (int i = 0; i < 10_000; i++) {
                long k = (long) (random.nextDouble() * keys);
                backend.setCurrentKey(k);
                assertThat(counts.value()).isEqualTo(k % 1000);
            }
            System.out.printf("soak: %d keys, max heap %d MB, SST %d MB, managed memory in use %d MB%n", keys,
                    Runtime.getRuntime().maxMemory() >> 20, backend.sstBytes() >> 20, backend.managedMemoryUsage() >> 20);
        }
    }
}
