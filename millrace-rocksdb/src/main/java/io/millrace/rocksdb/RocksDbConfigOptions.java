package io.millrace.rocksdb;

import io.millrace.api.ConfigOption;
import io.millrace.api.ConfigOptionProvider;
import io.millrace.api.ConfigType;
import java.nio.file.Path;
import java.util.List;

/**
 * The RocksDB backend's settings as configuration keys, so that a config file, {@code -D} flags and
 * {@code millrace.*} system properties can set them like the core options. They become state backend
 * options of the pipeline ({@code PipelineConfig.stateBackendOption}), read when the backend is created.
 */
public final class RocksDbConfigOptions implements ConfigOptionProvider {
    public static final ConfigOption<String> MANAGED_MEMORY = ConfigOption.of(RocksDbConfig.MANAGED_MEMORY_OPTION,
            ConfigType.of("size", "a size such as 256mb, 1gb or a number of bytes", v -> {
                RocksDbStateBackendProvider.bytes(RocksDbConfig.MANAGED_MEMORY_OPTION, v);
                return v.trim();
            }),
            null, "256mb", "Memory shared by all RocksDB state of the process: block cache, write buffers, indexes and filters.",
            (c, v, all) -> c.stateBackendOption(RocksDbConfig.MANAGED_MEMORY_OPTION, v));

    public static final ConfigOption<Path> DIRECTORY = ConfigOption.of(RocksDbConfig.DIRECTORY_OPTION, ConfigType.path(),
            null, "<tmpdir>/millrace-rocksdb", "Where the RocksDB instances of running operators keep their working files.",
            (c, v, all) -> c.stateBackendOption(RocksDbConfig.DIRECTORY_OPTION, v.toString()));

    public static final ConfigOption<Boolean> INCREMENTAL = ConfigOption.of(RocksDbConfig.INCREMENTAL_OPTION, ConfigType.bool(),
            null, "true", "Checkpoints upload only the RocksDB files that are new since the last one; savepoints are always full.",
            (c, v, all) -> c.stateBackendOption(RocksDbConfig.INCREMENTAL_OPTION, v.toString()));

    public static final ConfigOption<Integer> CACHE_ENTRIES = ConfigOption.of(RocksDbConfig.CACHE_ENTRIES_OPTION,
            ConfigType.of("entries", "0 (off) or a number of entries from " + RocksDbConfig.MIN_CACHE_ENTRIES + " to "
                    + RocksDbConfig.MAX_CACHE_ENTRIES, v -> RocksDbStateBackendProvider.entries(RocksDbConfig.CACHE_ENTRIES_OPTION, v.trim())),
            null, String.valueOf(RocksDbConfig.DEFAULT_CACHE_ENTRIES),
            "Entries of each keyed operator's write-back cache of value, reducing and aggregating state on the JVM heap; 0 = off.",
            (c, v, all) -> c.stateBackendOption(RocksDbConfig.CACHE_ENTRIES_OPTION, v.toString()));

    public static final ConfigOption<Integer> TIMER_CACHE_ENTRIES = ConfigOption.of(RocksDbConfig.TIMER_CACHE_ENTRIES_OPTION,
            ConfigType.of("timers", "a number of timers from " + RocksDbConfig.MIN_TIMER_CACHE_ENTRIES + " to "
                    + RocksDbConfig.MAX_TIMER_CACHE_ENTRIES,
                    v -> RocksDbStateBackendProvider.timerEntries(RocksDbConfig.TIMER_CACHE_ENTRIES_OPTION, v.trim())),
            null, String.valueOf(RocksDbConfig.DEFAULT_TIMER_CACHE_ENTRIES),
            "The most timers of each timer service and time domain kept on the JVM heap (the earliest ones); the rest are in RocksDB.",
            (c, v, all) -> c.stateBackendOption(RocksDbConfig.TIMER_CACHE_ENTRIES_OPTION, v.toString()));

    @Override
    public List<ConfigOption<?>> options() {
        return List.of(MANAGED_MEMORY, DIRECTORY, INCREMENTAL, CACHE_ENTRIES, TIMER_CACHE_ENTRIES);
    }
}
