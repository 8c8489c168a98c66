package io.millrace.rocksdb;

import io.millrace.api.PipelineConfig;
import io.millrace.runtime.state.KeyedStateBackendFactory;
import io.millrace.runtime.state.StateBackendProvider;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code rocksdb} state backend for {@link PipelineConfig#stateBackend(String)}. Its options, all
 * under {@code state.rocksdb.}: {@value RocksDbConfig#MANAGED_MEMORY_OPTION} (a size such as {@code 256mb},
 * {@code 1gb} or a number of bytes), {@value RocksDbConfig#DIRECTORY_OPTION} (a path),
 * {@value RocksDbConfig#INCREMENTAL_OPTION} ({@code true} or {@code false}),
 * {@value RocksDbConfig#CACHE_ENTRIES_OPTION} (a number of entries, 0 = off) and
 * {@value RocksDbConfig#TIMER_CACHE_ENTRIES_OPTION} (a number of timers). Options of
 * other backends are left to them.
 */
public final class RocksDbStateBackendProvider implements StateBackendProvider {
    public static final String NAME = "rocksdb";
    private static final String PREFIX = "state.rocksdb.";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public KeyedStateBackendFactory factory(PipelineConfig config) {
        return RocksDbStateBackends.factory(configFrom(config.stateBackendOptions()));
    }

    /** The settings the options give, defaults for the rest; fails naming an unknown or malformed option. */
    static RocksDbConfig configFrom(Map<String, String> options) {
        RocksDbConfig config = RocksDbConfig.defaults();
        for (Map.Entry<String, String> e : options.entrySet()) {
            String option = e.getKey();
            if (!option.startsWith(PREFIX)) {
                continue;
            }
            String value = e.getValue().trim();
            switch (option) {
                case RocksDbConfig.MANAGED_MEMORY_OPTION -> config = config.withManagedMemoryBytes(bytes(option, value));
                case RocksDbConfig.DIRECTORY_OPTION -> config = config.withBaseDirectory(Path.of(value));
                case RocksDbConfig.INCREMENTAL_OPTION -> config = config.withIncremental(bool(option, value));
                case RocksDbConfig.CACHE_ENTRIES_OPTION -> config = config.withCacheEntries(entries(option, value));
                case RocksDbConfig.TIMER_CACHE_ENTRIES_OPTION -> config = config.withTimerCacheEntries(timerEntries(option, value));
                default -> throw new IllegalArgumentException("unknown RocksDB option '" + option + "'; accepted: "
                        + RocksDbConfig.MANAGED_MEMORY_OPTION + ", " + RocksDbConfig.DIRECTORY_OPTION + ", " + RocksDbConfig.INCREMENTAL_OPTION
                        + ", " + RocksDbConfig.CACHE_ENTRIES_OPTION + ", " + RocksDbConfig.TIMER_CACHE_ENTRIES_OPTION);
            }
        }
        return config;
    }

    /** A number of cache entries, 0 (off) or from {@link RocksDbConfig#MIN_CACHE_ENTRIES} to {@link RocksDbConfig#MAX_CACHE_ENTRIES}. */
    static int entries(String option, String value) {
        int n = count(value);
        if (n != 0 && (n < RocksDbConfig.MIN_CACHE_ENTRIES || n > RocksDbConfig.MAX_CACHE_ENTRIES)) {
            throw new IllegalArgumentException("option '" + option + "' must be 0 (off) or a number of entries from "
                    + RocksDbConfig.MIN_CACHE_ENTRIES + " to " + RocksDbConfig.MAX_CACHE_ENTRIES + ", was '" + value + "'");
        }
        return n;
    }

    /** A number of timers, from {@link RocksDbConfig#MIN_TIMER_CACHE_ENTRIES} to {@link RocksDbConfig#MAX_TIMER_CACHE_ENTRIES}. */
    static int timerEntries(String option, String value) {
        int n = count(value);
        if (n < RocksDbConfig.MIN_TIMER_CACHE_ENTRIES || n > RocksDbConfig.MAX_TIMER_CACHE_ENTRIES) {
            throw new IllegalArgumentException("option '" + option + "' must be a number of timers from "
                    + RocksDbConfig.MIN_TIMER_CACHE_ENTRIES + " to " + RocksDbConfig.MAX_TIMER_CACHE_ENTRIES + ", was '" + value + "'");
        }
        return n;
    }

    /** A whole number, underscores allowed between digits ({@code 65_536}); -1 when it is not one. */
    private static int count(String value) {
        try {
            return Integer.parseInt(value.replace("_", ""));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** true or false, in any case. */
    static boolean bool(String option, String value) {
        if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(value);
        }
        throw new IllegalArgumentException("option '" + option + "' must be true or false, was '" + value + "'");
    }

    /** A size: digits with an optional unit b, kb, mb or gb (case-insensitive, binary multiples). */
    static long bytes(String option, String value) {
        String v = value.toLowerCase(Locale.ROOT).replace(" ", "");
        int unitAt = 0;
        while (unitAt < v.length() && Character.isDigit(v.charAt(unitAt))) {
            unitAt++;
        }
        long shift = switch (v.substring(unitAt)) {
            case "", "b" -> 0;
            case "kb", "k" -> 10;
            case "mb", "m" -> 20;
            case "gb", "g" -> 30;
            default -> -1;
        };
        if (unitAt == 0 || unitAt > 12 || shift < 0) {
            throw new IllegalArgumentException("option '" + option + "' must be a size such as 256mb, 1gb or 268435456, was '"
                    + value + "'");
        }
        return Long.parseLong(v.substring(0, unitAt)) << shift;
    }
}
