package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.ConfigException;
import io.millrace.api.ConfigOptions;
import io.millrace.api.ConfigValues;
import io.millrace.api.PipelineConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RocksDbConfigOptionsTest {

    @Test
    void rocksDbKeys_areRegistered_andBecomeStateBackendOptions() {
        assertThat(ConfigOptions.find("state.rocksdb.managed-memory")).isNotNull();
        assertThat(ConfigOptions.find("state.rocksdb.directory")).isNotNull();
        ConfigValues values = ConfigValues.parse(List.of(
                "state.backend: rocksdb",
                "state.rocksdb.managed-memory: 64mb",
                "state.rocksdb.directory: /tmp/millrace-rocks-test"), "job.conf");
        PipelineConfig config = ConfigOptions.apply(PipelineConfig.defaults(), values);
        assertThat(config.stateBackend()).isEqualTo("rocksdb");
        assertThat(config.stateBackendOptions())
                .containsEntry("state.rocksdb.managed-memory", "64mb")
                .containsEntry("state.rocksdb.directory", "/tmp/millrace-rocks-test");
        RocksDbConfig rocks = RocksDbStateBackendProvider.configFrom(config.stateBackendOptions());
        assertThat(rocks.managedMemoryBytes()).isEqualTo(64L << 20);
    }

    @Test
    void incrementalKey_isOnByDefault_andFalseTurnsFullCheckpointsOn() {
        assertThat(ConfigOptions.find("state.rocksdb.incremental").defaultText()).isEqualTo("true");
        assertThat(RocksDbConfig.defaults().incremental()).isTrue();
        PipelineConfig config = ConfigOptions.apply(PipelineConfig.defaults(),
                ConfigValues.parse(List.of("state.rocksdb.incremental: FALSE"), "job.conf"));
        assertThat(RocksDbStateBackendProvider.configFrom(config.stateBackendOptions()).incremental()).isFalse();
        assertThatThrownBy(() -> RocksDbStateBackendProvider.configFrom(Map.of(RocksDbConfig.INCREMENTAL_OPTION, "sometimes")))
                .hasMessageContaining("state.rocksdb.incremental").hasMessageContaining("true or false");
    }

    @Test
    void cacheEntriesKey_becomesAStateBackendOption_andATooSmallCacheIsRefusedNamingTheKey() {
        assertThat(ConfigOptions.find("state.rocksdb.cache.entries").defaultText()).isEqualTo("65536");
        PipelineConfig config = ConfigOptions.apply(PipelineConfig.defaults(),
                ConfigValues.parse(List.of("state.rocksdb.cache.entries: 50000"), "job.conf"));
        assertThat(RocksDbStateBackendProvider.configFrom(config.stateBackendOptions()).cacheEntries()).isEqualTo(50_000);
        ConfigValues tooSmall = ConfigValues.parse(List.of("state.rocksdb.cache.entries: 8"), "job.conf");
        assertThatThrownBy(() -> ConfigOptions.apply(PipelineConfig.defaults(), tooSmall))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("state.rocksdb.cache.entries")
                .hasMessageContaining("0 (off)");
    }

    @Test
    void timerCacheEntriesKey_becomesAStateBackendOption_andZeroIsRefusedNamingTheKey() {
        assertThat(ConfigOptions.find("state.rocksdb.timer-cache.entries").defaultText()).isEqualTo("131072");
        PipelineConfig config = ConfigOptions.apply(PipelineConfig.defaults(),
                ConfigValues.parse(List.of("state.rocksdb.timer-cache.entries: 4096"), "job.conf"));
        assertThat(RocksDbStateBackendProvider.configFrom(config.stateBackendOptions()).timerCacheEntries()).isEqualTo(4_096);
        ConfigValues zero = ConfigValues.parse(List.of("state.rocksdb.timer-cache.entries: 0"), "job.conf");
        assertThatThrownBy(() -> ConfigOptions.apply(PipelineConfig.defaults(), zero))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("state.rocksdb.timer-cache.entries");
    }

    @Test
    void misspelledKeyOfThisModule_isUnknown_withTheClosestRocksDbKey() {
        ConfigValues values = ConfigValues.parse(List.of("state.rocksdb.managed-memroy: 1gb"), "job.conf");
        assertThatThrownBy(() -> ConfigOptions.apply(PipelineConfig.defaults(), values))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown option 'state.rocksdb.managed-memroy' (job.conf, line 1)")
                .hasMessageContaining("Did you mean 'state.rocksdb.managed-memory'?");
    }

    @Test
    void badSize_isRefused_namingTheKeyAndTheAcceptedForm() {
        ConfigValues values = ConfigValues.parse(List.of("state.rocksdb.managed-memory: lots"), "job.conf");
        assertThatThrownBy(() -> ConfigOptions.apply(PipelineConfig.defaults(), values))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("state.rocksdb.managed-memory")
                .hasMessageContaining("lots")
                .hasMessageContaining("256mb");
    }
}
