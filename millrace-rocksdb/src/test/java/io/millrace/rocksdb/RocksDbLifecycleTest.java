package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.state.ListState;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.InternalTimerService;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.NamespacedState;
import io.millrace.runtime.state.Triggerable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Native resources and working directories: released on every path, whatever the state held. */
class RocksDbLifecycleTest {
    @TempDir
    Path base;

    private static final Triggerable<String> NOTHING = new Triggerable<>() {
        @Override
        public void onEventTime(long timestamp, String namespace) {}

        @Override
        public void onProcessingTime(long timestamp, String namespace) {}
    };

    @Test
    void manyBackendsOpenedUsedAndClosed_leaveNoDirectoryAndNoSharedMemory() throws IOException {
        RocksDbConfig config = TestBackends.CONFIG.withBaseDirectory(base);
        for (int round = 0; round < 5; round++) {
            RocksDbKeyedStateBackend[] open = new RocksDbKeyedStateBackend[4];
            for (int subtask = 0; subtask < open.length; subtask++) {
                open[subtask] = new RocksDbKeyedStateBackend("op", KeyGroups.rangeFor(subtask, 128, 4), 128, new ManualClock(0), config);
                fill(open[subtask], subtask);
            }
            assertThat(entries(base)).hasSize(open.length);
            assertThat(SharedMemory.livePools()).isEqualTo(1);
            for (RocksDbKeyedStateBackend b : open) {
                b.close();
                b.close();
            }
            assertThat(entries(base)).isEmpty();
        }
        assertThat(SharedMemory.livePools()).isZero();
    }

    @Test
    void closedBackend_refusesNewStateNamingTheOperator() {
        RocksDbKeyedStateBackend b = new RocksDbKeyedStateBackend("counter", new KeyGroupRange(0, 7), 8, new ManualClock(0),
                TestBackends.CONFIG.withBaseDirectory(base));
        b.close();
        assertThatThrownBy(() -> b.stateStore().getState(new ValueStateDescriptor<String>("v")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'counter'");
    }

    @Test
    void failedOpen_releasesSharedMemory_andNamesTheDirectoryOption() throws IOException {
        Path notADirectory = Files.writeString(base.resolve("file"), "x");
        RocksDbConfig config = TestBackends.CONFIG.withBaseDirectory(notADirectory.resolve("sub"));
        assertThatThrownBy(() -> new RocksDbKeyedStateBackend("op", new KeyGroupRange(0, 7), 8, new ManualClock(0), config))
                .hasMessageContaining(RocksDbConfig.DIRECTORY_OPTION);
        assertThat(SharedMemory.livePools()).isZero();
    }

    @Test
    void tooLittleManagedMemory_isRefusedNamingTheOption() {
        assertThatThrownBy(() -> RocksDbConfig.defaults().withManagedMemoryBytes(1024))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(RocksDbConfig.MANAGED_MEMORY_OPTION)
                .hasMessageContaining("1024");
    }

    private static void fill(RocksDbKeyedStateBackend b, int subtask) {
        ValueState<Long> value = b.stateStore().getState(new ValueStateDescriptor<>("value"));
        ListState<String> list = b.stateStore().getListState(new ListStateDescriptor<>("list"));
        MapState<Integer, String> map = b.stateStore().getMapState(new MapStateDescriptor<>("map"));
        NamespacedState<Long, String> windows = b.namespacedState("windows");
        InternalTimerService<String> timers = b.timerService("timers", NOTHING);
        KeyGroupRange range = b.keyGroupRange();
        for (int k = 0; k < 2_000; k++) {
            if (!range.contains(KeyGroups.keyGroupFor(k, 128))) {
                continue;
            }
            b.setCurrentKey(k);
            value.update((long) k);
            list.add("x" + subtask);
            map.put(k % 3, "m");
            windows.put((long) k, "w");
            timers.registerEventTimeTimer("t", k);
        }
        assertThat(b.entryCount()).isPositive();
        assertThat(timers.size()).isPositive();
        assertThat(List.of(b.directory())).allSatisfy(d -> assertThat(d).isDirectory());
    }

    private static List<Path> entries(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }
}
