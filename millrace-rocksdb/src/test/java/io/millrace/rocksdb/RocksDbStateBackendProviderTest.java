package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.PipelineConfig;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.StateBackendProvider;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Selecting RocksDB by name, and its options. */
class RocksDbStateBackendProviderTest {
    @TempDir
    Path base;

    @Test
    void stateBackendRocksdb_givesRocksDbBackends_inTheConfiguredDirectory() {
        PipelineConfig config = new PipelineConfig().stateBackend("rocksdb")
                .stateBackendOption(RocksDbConfig.DIRECTORY_OPTION, base.toString())
                .stateBackendOption(RocksDbConfig.MANAGED_MEMORY_OPTION, "16mb");
        try (KeyedStateBackend b = StateBackendProvider.resolve(config).create("op", new KeyGroupRange(0, 7), 8, new ManualClock(0))) {
            assertThat(b).isInstanceOf(RocksDbKeyedStateBackend.class);
            assertThat(((RocksDbKeyedStateBackend) b).directory()).hasParent(base.toAbsolutePath()).isDirectory();
        }
    }

    @Test
    void sizes_acceptUnitsAndPlainBytes() {
        assertThat(RocksDbStateBackendProvider.configFrom(Map.of(RocksDbConfig.MANAGED_MEMORY_OPTION, "256mb")).managedMemoryBytes())
                .isEqualTo(256L << 20);
        assertThat(RocksDbStateBackendProvider.configFrom(Map.of(RocksDbConfig.MANAGED_MEMORY_OPTION, "1GB")).managedMemoryBytes())
                .isEqualTo(1L << 30);
        assertThat(RocksDbStateBackendProvider.configFrom(Map.of(RocksDbConfig.MANAGED_MEMORY_OPTION, "8388608")).managedMemoryBytes())
                .isEqualTo(8L << 20);
    }

    @Test
    void unknownOrMalformedOptions_failNamingTheOptionAndTheAcceptedValues() {
        assertThatThrownBy(() -> RocksDbStateBackendProvider.configFrom(Map.of("state.rocksdb.block-size", "4kb")))
                .hasMessageContaining("'state.rocksdb.block-size'").hasMessageContaining(RocksDbConfig.MANAGED_MEMORY_OPTION);
        assertThatThrownBy(() -> RocksDbStateBackendProvider.configFrom(Map.of(RocksDbConfig.MANAGED_MEMORY_OPTION, "lots")))
                .hasMessageContaining(RocksDbConfig.MANAGED_MEMORY_OPTION).hasMessageContaining("256mb");
    }

    @Test
    void cacheEntries_defaultTo65536_zeroTurnsTheCacheOff_andOutOfRangeValuesFailNamingTheOption() {
        assertThat(RocksDbConfig.defaults().cacheEntries()).isEqualTo(65_536);
        assertThat(RocksDbStateBackendProvider.configFrom(Map.of(RocksDbConfig.CACHE_ENTRIES_OPTION, "100_000")).cacheEntries())
                .isEqualTo(100_000);
        assertThat(RocksDbStateBackendProvider.configFrom(Map.of(RocksDbConfig.CACHE_ENTRIES_OPTION, "0")).cacheEntries()).isZero();
        for (String bad : List.of("8", "-1", "many", "99999999")) {
            assertThatThrownBy(() -> RocksDbStateBackendProvider.configFrom(Map.of(RocksDbConfig.CACHE_ENTRIES_OPTION, bad)))
                    .as(bad).hasMessageContaining(RocksDbConfig.CACHE_ENTRIES_OPTION).hasMessageContaining("0 (off)");
        }
    }

    @Test
    void timerCacheEntries_defaultTo131072_andOutOfRangeValuesFailNamingTheOption() {
        assertThat(RocksDbConfig.defaults().timerCacheEntries()).isEqualTo(131_072);
        assertThat(RocksDbStateBackendProvider.configFrom(Map.of(RocksDbConfig.TIMER_CACHE_ENTRIES_OPTION, "1_024")).timerCacheEntries())
                .isEqualTo(1_024);
        for (String bad : List.of("0", "8", "-1", "many", "99999999")) {
            assertThatThrownBy(() -> RocksDbStateBackendProvider.configFrom(Map.of(RocksDbConfig.TIMER_CACHE_ENTRIES_OPTION, bad)))
                    .as(bad).hasMessageContaining(RocksDbConfig.TIMER_CACHE_ENTRIES_OPTION).hasMessageContaining("from 16 to 4194304");
        }
        assertThatThrownBy(() -> RocksDbConfig.defaults().withTimerCacheEntries(2))
                .hasMessageContaining(RocksDbConfig.TIMER_CACHE_ENTRIES_OPTION);
    }

    @Test
    void optionsOfOtherBackends_areLeftAlone() {
        assertThat(RocksDbStateBackendProvider.configFrom(Map.of("state.heap.something", "x"))).isEqualTo(RocksDbConfig.defaults());
    }
}
