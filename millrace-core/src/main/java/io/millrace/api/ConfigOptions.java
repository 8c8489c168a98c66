package io.millrace.api;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * Every option that can be set outside the code, and how a set of values is applied to a
 * {@link PipelineConfig}. The reference page {@code docs/configuration.md} is checked against this list.
 *
 * <p>Where values come from, highest first: setter calls in the code, then (under {@code millrace run}) the
 * command-line flags and {@code -D key=value}, then {@code millrace.<key>} system properties, then the config
 * file, then the defaults. {@code new PipelineConfig()} starts from the defaults and applies the
 * {@code millrace.*} system properties; {@code millrace run} turns its file and flags into such properties.
 *
 * <p>To add an option, add one entry to {@link #BUILT_IN} (core settings) or, from another module, return it
 * from a {@link ConfigOptionProvider}.
 */
public final class ConfigOptions {
    public static final ConfigOption<Integer> PARALLELISM = ConfigOption.of("parallelism", ConfigType.integer(1, 32_768),
            null, "number of cores", "Subtasks per operator unless the operator sets its own.",
            (c, v, all) -> c.parallelism(v));
    public static final ConfigOption<Integer> MAX_PARALLELISM = ConfigOption.of("max-parallelism", ConfigType.integer(1, 32_768),
            128, "128", "Number of key groups: the most subtasks a keyed operator can have, also after rescaling.",
            (c, v, all) -> c.maxParallelism(v));
    public static final ConfigOption<Integer> BATCH_SIZE = ConfigOption.of("batch-size", ConfigType.integer(1, 1 << 20),
            512, "512", "Records per batch crossing a thread.",
            (c, v, all) -> c.batchSize(v));
    public static final ConfigOption<Integer> CHANNEL_CAPACITY = ConfigOption.of("channel-capacity", ConfigType.integer(1, 1 << 16),
            32, "32", "The most batches a channel between two subtasks holds before its producer waits.",
            (c, v, all) -> c.channelCapacity(v));
    public static final ConfigOption<Duration> CHANNEL_IN_FLIGHT_TARGET = ConfigOption.of("channel-in-flight-target", ConfigType.duration(true),
            Duration.ofMillis(100), "100ms",
            "Each channel is bounded to about this much of its consumer's reading (2 batches to channel-capacity), so barriers wait little behind data under backpressure; 0: channels stay at channel-capacity.",
            (c, v, all) -> c.channelInFlightTarget(v));
    public static final ConfigOption<Duration> BUFFER_TIMEOUT = ConfigOption.of("buffer-timeout", ConfigType.duration(true),
            Duration.ofMillis(10), "10ms", "Longest a partial batch waits before it is sent.",
            (c, v, all) -> c.bufferTimeout(v));
    public static final ConfigOption<Duration> WATERMARK_INTERVAL = ConfigOption.of("watermark-interval", ConfigType.duration(true),
            Duration.ofMillis(1), "1ms", "Longest a watermark crossing a thread is held back to go together with later ones "
                    + "(never longer than the buffer timeout); 0 sends each at once, for tests that expect a watermark after every record.",
            (c, v, all) -> c.watermarkInterval(v));

    public static final ConfigOption<Path> CHECKPOINT_DIR = ConfigOption.of("checkpoint.dir", ConfigType.path(),
            null, "none: checkpoints off", "Turns checkpoints on: where they are written; a job started again with it resumes from the newest complete one.",
            (c, v, all) -> c.checkpoints().directory(v));
    public static final ConfigOption<Duration> CHECKPOINT_INTERVAL = ConfigOption.of("checkpoint.interval", ConfigType.duration(false),
            Duration.ofSeconds(10), "10s", "Time between the starts of two checkpoints.",
            (c, v, all) -> c.checkpoints().interval(v));
    public static final ConfigOption<Duration> CHECKPOINT_TIMEOUT = ConfigOption.of("checkpoint.timeout", ConfigType.duration(false),
            Duration.ofMinutes(10), "10m", "A checkpoint not complete by then is abandoned; the job goes on.",
            (c, v, all) -> c.checkpoints().timeout(v));
    public static final ConfigOption<Duration> CHECKPOINT_MIN_PAUSE = ConfigOption.of("checkpoint.min-pause", ConfigType.duration(true),
            Duration.ZERO, "0", "Least time between the end of one checkpoint and the start of the next.",
            (c, v, all) -> c.checkpoints().minPause(v));
    public static final ConfigOption<Integer> CHECKPOINT_RETAINED = ConfigOption.of("checkpoint.retained", ConfigType.integer(1, 1000),
            3, "3", "Complete checkpoints kept; older ones are deleted.",
            (c, v, all) -> c.checkpoints().retained(v));
    public static final ConfigOption<CheckpointConfig.Mode> CHECKPOINT_MODE = ConfigOption.of("checkpoint.mode",
            ConfigType.choice(CheckpointConfig.Mode.class), CheckpointConfig.Mode.EXACTLY_ONCE, "exactly-once",
            "exactly-once aligns barriers from all inputs; at-least-once does not wait, so a replay may count records twice in state.",
            (c, v, all) -> c.checkpoints().mode(v));
    public static final ConfigOption<Boolean> CHECKPOINT_ALLOW_NON_RESTORED_STATE = ConfigOption.of("checkpoint.allow-non-restored-state",
            ConfigType.bool(), false, "false", "Whether a restore may drop the state of operators the job no longer has.",
            (c, v, all) -> c.checkpoints().allowNonRestoredState(v));
    public static final ConfigOption<Boolean> CHECKPOINT_PERIODIC = ConfigOption.of("checkpoint.periodic",
            ConfigType.bool(), true, "true", "false: no checkpoints at the interval; savepoints, requested and final checkpoints still work.",
            (c, v, all) -> c.checkpoints().periodic(v));
    public static final ConfigOption<Path> CHECKPOINT_SAVEPOINT_DIR = ConfigOption.of("checkpoint.savepoint-dir", ConfigType.path(),
            null, "<checkpoint.dir>/savepoints", "Where savepoints are written.",
            (c, v, all) -> c.checkpoints().savepointDirectory(v));
    public static final ConfigOption<Path> CHECKPOINT_RESTORE_FROM = ConfigOption.of("checkpoint.restore-from", ConfigType.path(),
            null, "none", "A savepoint or checkpoint to start from; later starts resume from the newest checkpoint taken since (needs checkpoint.dir).",
            (c, v, all) -> c.checkpoints().restoreFrom(v));

    public static final ConfigOption<String> STATE_BACKEND = ConfigOption.of("state.backend",
            ConfigType.of("name", "heap, rocksdb (with millrace-rocksdb on the class path), or another registered backend",
                    v -> {
                        if (v.isBlank() || !v.trim().matches("[A-Za-z0-9_-]+")) {
                            throw new IllegalArgumentException("not a backend name");
                        }
                        return v.trim();
                    }),
            "heap", "heap", "Where keyed state lives; an unknown name fails, listing the backends on the class path: under millrace run before the job's main runs, otherwise when the job starts.",
            (c, v, all) -> c.stateBackend(v));

    public static final ConfigOption<String> STATE_HEAP_VALUES = ConfigOption.of("state.heap.values",
            ConfigType.oneOf("auto", "objects", "serialized"), null, "auto",
            "How the heap backend keeps value, list, reducing and aggregating state: objects, or serialized into large byte arrays "
                    + "that young collections never copy (reads decode a copy, as with RocksDB), or auto: objects until a state is large "
                    + "and its immutable values are read or replaced less often than new ones come in; see docs/state-backends.md.",
            (c, v, all) -> c.stateBackendOption("state.heap.values", v));

    public static final ConfigOption<Boolean> WINDOW_LOCAL_AGGREGATION = ConfigOption.of("window.local-aggregation",
            ConfigType.bool(), true, "true", "Event-time tumbling and sliding windows with a reduce or aggregate function (default trigger, "
                    + "no allowed lateness, no late-data side output) pre-aggregate per key and slice before the keyed exchange; false sends every record.",
            (c, v, all) -> c.localWindowAggregation(v));
    public static final ConfigOption<Integer> WINDOW_LOCAL_AGGREGATION_MAX_KEYS = ConfigOption.of("window.local-aggregation.max-keys",
            ConfigType.integer(1, 1 << 24), 16_384, "16384", "The most (key, slice) partials a pre-aggregating subtask holds; one more and it emits them all.",
            (c, v, all) -> c.localWindowAggregationMaxKeys(v));

    public static final ConfigOption<String> RESTART_STRATEGY = ConfigOption.of("restart.strategy",
            ConfigType.oneOf("none", "fixed-delay", "exponential-backoff"), "none", "none",
            "What a task failure does: none fails the job; the others restart it from the latest checkpoint.",
            ConfigOptions::applyRestartStrategy);
    public static final ConfigOption<Integer> RESTART_ATTEMPTS = ConfigOption.of("restart.attempts", ConfigType.integer(1, Integer.MAX_VALUE),
            3, "3", "Restarts allowed in all (fixed-delay, exponential-backoff).",
            (c, v, all) -> requireRestartStrategy(all, "fixed-delay", "exponential-backoff"));
    public static final ConfigOption<Duration> RESTART_DELAY = ConfigOption.of("restart.delay", ConfigType.duration(true),
            Duration.ofSeconds(1), "1s", "Delay before a restart (fixed-delay); the first delay (exponential-backoff).",
            (c, v, all) -> requireRestartStrategy(all, "fixed-delay", "exponential-backoff"));
    public static final ConfigOption<Duration> RESTART_MAX_DELAY = ConfigOption.of("restart.max-delay", ConfigType.duration(true),
            Duration.ofMinutes(5), "5m", "Longest delay (exponential-backoff).",
            (c, v, all) -> requireRestartStrategy(all, "exponential-backoff"));
    public static final ConfigOption<Double> RESTART_MULTIPLIER = ConfigOption.of("restart.multiplier", ConfigType.number(1),
            2.0, "2", "Factor by which the delay grows after each restart (exponential-backoff).",
            (c, v, all) -> requireRestartStrategy(all, "exponential-backoff"));

    /** The core options, in the order the reference page lists them. */
    private static final List<ConfigOption<?>> BUILT_IN = List.of(
            PARALLELISM, MAX_PARALLELISM, BATCH_SIZE, CHANNEL_CAPACITY, CHANNEL_IN_FLIGHT_TARGET, BUFFER_TIMEOUT, WATERMARK_INTERVAL,
            CHECKPOINT_DIR, CHECKPOINT_INTERVAL, CHECKPOINT_TIMEOUT, CHECKPOINT_MIN_PAUSE, CHECKPOINT_RETAINED,
            CHECKPOINT_MODE, CHECKPOINT_ALLOW_NON_RESTORED_STATE, CHECKPOINT_PERIODIC, CHECKPOINT_SAVEPOINT_DIR,
            CHECKPOINT_RESTORE_FROM, STATE_BACKEND, STATE_HEAP_VALUES, WINDOW_LOCAL_AGGREGATION, WINDOW_LOCAL_AGGREGATION_MAX_KEYS,
            RESTART_STRATEGY, RESTART_ATTEMPTS, RESTART_DELAY, RESTART_MAX_DELAY, RESTART_MULTIPLIER);

    private ConfigOptions() {}

    /** Every option: the core ones, then those of {@link ConfigOptionProvider}s. */
    public static List<ConfigOption<?>> all() {
        return Registry.ALL;
    }

    /** The option with this key, or null. */
    public static ConfigOption<?> find(String key) {
        return Registry.BY_KEY.get(key);
    }

    /**
     * Parses every value, then applies them to {@code config} in registry order.
     *
     * @return {@code config}
     * @throws ConfigException for an unknown key or a value that is refused, naming the key, the value,
     *     its origin and what the option accepts; {@code config} may then be partly changed
     */
    public static PipelineConfig apply(PipelineConfig config, ConfigValues values) {
        if (values.isEmpty()) {
            return config;
        }
        Map<ConfigOption<?>, Object> parsed = new HashMap<>();
        for (String key : values.keys()) {
            ConfigOption<?> option = find(key);
            ConfigValues.Value v = values.get(key);
            if (option == null) {
                throw unknown(key, v.origin());
            }
            try {
                parsed.put(option, option.type().parse(v.text()));
            } catch (ConfigException e) {
                throw e;
            } catch (IllegalArgumentException e) {
                throw invalid(option, v, e.getMessage());
            }
        }
        ConfigOption.Values all = new ConfigOption.Values() {
            @Override
            @SuppressWarnings("unchecked")
            public <V> V get(ConfigOption<V> option) {
                return parsed.containsKey(option) ? (V) parsed.get(option) : option.defaultValue();
            }

            @Override
            public boolean isSet(ConfigOption<?> option) {
                return parsed.containsKey(option);
            }
        };
        for (ConfigOption<?> option : all()) {
            if (parsed.containsKey(option)) {
                try {
                    option.apply(config, parsed.get(option), all);
                } catch (ConfigException e) {
                    throw e;
                } catch (IllegalArgumentException e) {
                    throw invalid(option, values.get(option.key()), e.getMessage());
                }
            }
        }
        return config;
    }

    /** Applies {@code values} to fresh defaults, only to find errors; throws {@link ConfigException} for the first. */
    public static void validate(ConfigValues values) {
        apply(PipelineConfig.defaults(), values);
    }

    private static void applyRestartStrategy(PipelineConfig c, String kind, ConfigOption.Values all) {
        c.restartStrategy(switch (kind) {
            case "none" -> RestartStrategy.none();
            case "fixed-delay" -> RestartStrategy.fixedDelay(all.get(RESTART_ATTEMPTS), all.get(RESTART_DELAY));
            default -> RestartStrategy.exponentialBackoff(all.get(RESTART_ATTEMPTS), all.get(RESTART_DELAY),
                    all.get(RESTART_MAX_DELAY), all.get(RESTART_MULTIPLIER));
        });
    }

    private static void requireRestartStrategy(ConfigOption.Values all, String... kinds) {
        String kind = all.get(RESTART_STRATEGY);
        if (!List.of(kinds).contains(kind)) {
            throw new IllegalArgumentException("it applies only with " + RESTART_STRATEGY.key() + " "
                    + String.join(" or ", kinds) + ", and " + RESTART_STRATEGY.key() + " is "
                    + (all.isSet(RESTART_STRATEGY) ? kind : "not set (none)"));
        }
    }

    private static ConfigException invalid(ConfigOption<?> option, ConfigValues.Value v, String reason) {
        return new ConfigException(option.key(), "option '" + option.key() + "' has an invalid value '" + v.text()
                + "' (" + v.origin() + "): " + reason + ". Accepted: " + option.accepted() + ".");
    }

    /**
     * Key prefixes of the options of optional modules, with the module that brings them. An option under such a
     * prefix when no option of the module is registered is reported as belonging to a module that is not on the
     * class path, not as a typo.
     */
    private static final Map<String, String> MODULE_PREFIXES = Map.of("state.rocksdb.", "millrace-rocksdb");

    private static ConfigException unknown(String key, String origin) {
        for (Map.Entry<String, String> m : MODULE_PREFIXES.entrySet()) {
            if (key.startsWith(m.getKey()) && all().stream().noneMatch(o -> o.key().startsWith(m.getKey()))) {
                return new ConfigException(key, "option '" + key + "' (" + origin + ") belongs to the module " + m.getValue()
                        + ", which is not on the class path: add it, or remove the option.");
            }
        }
        String closest = null;
        int best = Integer.MAX_VALUE;
        for (ConfigOption<?> o : all()) {
            int d = distance(key, o.key());
            if (d < best) {
                best = d;
                closest = o.key();
            }
        }
        String hint = best <= 3 ? " Did you mean '" + closest + "'?" : "";
        return new ConfigException(key, "unknown option '" + key + "' (" + origin + ")." + hint + " Known options: "
                + all().stream().map(ConfigOption::key).collect(Collectors.joining(", ")) + ".");
    }

    /** Edit distance between two keys, for the "did you mean" hint. */
    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    /** The options, loaded once on first use. */
    private static final class Registry {
        static final List<ConfigOption<?>> ALL;
        static final Map<String, ConfigOption<?>> BY_KEY;

        static {
            List<ConfigOption<?>> all = new ArrayList<>(BUILT_IN);
            for (ConfigOptionProvider p : ServiceLoader.load(ConfigOptionProvider.class, ConfigOptions.class.getClassLoader())) {
                all.addAll(p.options());
            }
            Map<String, ConfigOption<?>> byKey = new LinkedHashMap<>();
            for (ConfigOption<?> o : all) {
                if (byKey.put(o.key(), o) != null) {
                    throw new IllegalStateException("two options have the key '" + o.key() + "'");
                }
            }
            ALL = List.copyOf(all);
            BY_KEY = Map.copyOf(byKey);
        }
    }
}
