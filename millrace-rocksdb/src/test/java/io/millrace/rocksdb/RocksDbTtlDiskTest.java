package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.StateTtlConfig;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.KeyGroupRange;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Under TTL, a stream of keys that are never seen again does not make the state or the disk grow. */
class RocksDbTtlDiskTest {
    private static final int ROUNDS = 16;
    private static final int KEYS_PER_ROUND = 2_000;
    private static final String PAYLOAD = "x".repeat(64);

    private final ManualClock clock = new ManualClock(0);
    private final RocksDbKeyedStateBackend backend = TestBackends.create(new KeyGroupRange(0, 127), 128, clock);

    @AfterEach
    void close() {
        backend.close();
    }

    @Test
    void transientKeysUnderTtl_liveEntriesAndDiskUseStopGrowing() throws Exception {
        StateTtlConfig ttl = StateTtlConfig.afterWrite(Duration.ofMillis(100));
        ValueState<String> value = backend.stateStore().getState(
                (ValueStateDescriptor<String>) new ValueStateDescriptor<String>("last").enableTimeToLive(ttl));
        MapState<Integer, String> map = backend.stateStore().getMapState(
                (MapStateDescriptor<Integer, String>) new MapStateDescriptor<Integer, String>("recent").enableTimeToLive(ttl));
        List<Long> entries = new ArrayList<>();
        List<Long> disk = new ArrayList<>();
        long key = 0;
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < KEYS_PER_ROUND; i++) {
                backend.setCurrentKey(key++);
                value.update(PAYLOAD);
                map.put(i % 4, PAYLOAD);
            }
            clock.set(clock.millis() + 50);
            for (int tick = 0; tick < 4; tick++) {
                backend.advanceProcessingTime(clock.millis());
            }
            backend.compact();
            entries.add(backend.entryCount());
            disk.add(backend.sstBytes());
        }
        long perRound = 2L * KEYS_PER_ROUND;
        assertThat(entries).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(2 * perRound));
        long settled = disk.subList(3, 6).stream().mapToLong(Long::longValue).max().orElseThrow();
        assertThat(disk.subList(6, ROUNDS)).allSatisfy(bytes -> assertThat(bytes).isLessThanOrEqualTo(settled * 3 / 2));
        assertThat(settled).as("the disk holds a few rounds, not all of them").isLessThan(disk.get(0) * ROUNDS / 3);
    }
}
