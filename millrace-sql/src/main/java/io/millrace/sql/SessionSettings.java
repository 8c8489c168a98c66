package io.millrace.sql;

import io.millrace.api.ConfigOptions;
import io.millrace.api.ConfigValues;
import io.millrace.api.PipelineConfig;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The options a session's {@code SET} statements gave. Millrace's own keys ({@code parallelism},
 * {@code checkpoint.dir}, ... as in {@link ConfigOptions}) and Flink's names for the same settings
 * ({@code parallelism.default}, {@code execution.checkpointing.interval}, ...) are accepted; an unknown key or a
 * refused value fails naming the key and what is accepted.
 */
final class SessionSettings {
    private static final Map<String, String> FLINK_KEYS = Map.of(
            "parallelism.default", "parallelism",
            "execution.checkpointing.interval", "checkpoint.interval",
            "execution.checkpointing.dir", "checkpoint.dir",
            "state.checkpoints.dir", "checkpoint.dir",
            "execution.checkpointing.mode", "checkpoint.mode",
            "execution.checkpointing.timeout", "checkpoint.timeout",
            "execution.checkpointing.min-pause", "checkpoint.min-pause",
            "execution.savepoint.path", "checkpoint.restore-from",
            "state.backend.type", "state.backend");

    private final Map<String, String> values = new TreeMap<>();
    private String jobName;

    /** Sets {@code key}; fails with an {@link IllegalArgumentException} naming it if it is unknown or refused. */
    void set(String key, String value) {
        switch (key) {
            case "pipeline.name" -> {
                jobName = value;
                values.put(key, value);
                return;
            }
            case "execution.runtime-mode" -> {
                if (!value.equalsIgnoreCase("streaming")) {
                    throw new IllegalArgumentException("'execution.runtime-mode' = '" + value + "' is not supported: accepted is 'streaming' "
                            + "(bounded tables are read as streams that end)");
                }
                values.put(key, value);
                return;
            }
            case "table.local-time-zone" -> {
                if (!value.equals("UTC")) {
                    throw new IllegalArgumentException("'table.local-time-zone' = '" + value + "' is not supported yet: accepted is 'UTC'");
                }
                values.put(key, value);
                return;
            }
            default -> { }
        }
        String millraceKey = FLINK_KEYS.getOrDefault(key, key);
        String v = millraceKey.equals("checkpoint.mode") ? value.toLowerCase(Locale.ROOT).replace('_', '-') : value;
        ConfigValues candidate = configValues().with(millraceKey, v, "SET '" + key + "'");
        ConfigOptions.validate(candidate);
        values.put(key, value);
    }

    void reset(String key) {
        if (key == null) {
            values.clear();
            jobName = null;
        } else {
            values.remove(key);
            if (key.equals("pipeline.name")) {
                jobName = null;
            }
        }
    }

    Map<String, String> values() {
        return Map.copyOf(values);
    }

    String jobName(String fallback) {
        return jobName == null ? fallback : jobName;
    }

    /** {@code base} with the options set here applied. */
    PipelineConfig apply(PipelineConfig base) {
        return ConfigOptions.apply(base.copy(), configValues());
    }

    private ConfigValues configValues() {
        ConfigValues c = ConfigValues.empty();
        for (Map.Entry<String, String> e : values.entrySet()) {
            String k = e.getKey();
            if (k.equals("pipeline.name") || k.equals("execution.runtime-mode") || k.equals("table.local-time-zone")) {
                continue;
            }
            String millraceKey = FLINK_KEYS.getOrDefault(k, k);
            String v = millraceKey.equals("checkpoint.mode") ? e.getValue().toLowerCase(Locale.ROOT).replace('_', '-') : e.getValue();
            c = c.with(millraceKey, v, "SET '" + k + "'");
        }
        return c;
    }
}
