package io.millrace.api;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Option values as text, by key, each with where it came from — not yet parsed. Layers combine with
 * {@link #overlay}: the higher layer wins key by key. Parse and apply them with
 * {@link ConfigOptions#apply(PipelineConfig, ConfigValues)}. Immutable and thread-safe.
 *
 * <p>The config file format is flat: one {@code key: value} per line, {@code #} starts a comment line, blank
 * lines are ignored, the value is the rest of the line with surrounding spaces removed (no quoting). A key
 * may appear once.
 */
public final class ConfigValues {
    /** The prefix of system properties that carry options: {@code millrace.checkpoint.dir} sets {@code checkpoint.dir}. */
    public static final String SYSTEM_PROPERTY_PREFIX = "millrace.";

    /**
     * One value.
     *
     * @param text the value as given
     * @param origin where it was given, for messages: e.g. {@code file job.conf, line 3}
     */
    public record Value(String text, String origin) {}

    private static final ConfigValues EMPTY = new ConfigValues(Map.of());

    private final Map<String, Value> values;

    private ConfigValues(Map<String, Value> values) {
        this.values = values;
    }

    public static ConfigValues empty() {
        return EMPTY;
    }

    /** The {@code millrace.*} entries of the given properties, with the prefix removed from the keys. */
    public static ConfigValues fromSystemProperties(Properties properties) {
        Map<String, Value> m = new LinkedHashMap<>();
        for (String name : properties.stringPropertyNames()) {
            if (name.startsWith(SYSTEM_PROPERTY_PREFIX)) {
                m.put(name.substring(SYSTEM_PROPERTY_PREFIX.length()),
                        new Value(properties.getProperty(name), "system property " + name));
            }
        }
        return m.isEmpty() ? EMPTY : new ConfigValues(Collections.unmodifiableMap(m));
    }

    /** The {@code millrace.*} system properties of this JVM. */
    public static ConfigValues fromSystemProperties() {
        return fromSystemProperties(System.getProperties());
    }

    /**
     * Reads a config file (format in the class comment).
     *
     * @throws ConfigException naming the file and line of a malformed or repeated line
     * @throws IOException when the file cannot be read
     */
    public static ConfigValues fromFile(Path file) throws IOException {
        return parse(Files.readAllLines(file, StandardCharsets.UTF_8), "file " + file);
    }

    /** Parses the lines of a config file; {@code source} names it in origins, e.g. {@code file job.conf}. */
    public static ConfigValues parse(List<String> lines, String source) {
        Map<String, Value> m = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String origin = source + ", line " + (i + 1);
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new ConfigException(null, origin + ": expected 'key: value', found '" + line + "'");
            }
            String key = line.substring(0, colon).strip();
            Value previous = m.put(key, new Value(line.substring(colon + 1).strip(), origin));
            if (previous != null) {
                throw new ConfigException(key, origin + ": option '" + key + "' is already set at " + previous.origin());
            }
        }
        return new ConfigValues(Collections.unmodifiableMap(m));
    }

    /** These values plus one more; it replaces a value of the same key. */
    public ConfigValues with(String key, String text, String origin) {
        Map<String, Value> m = new LinkedHashMap<>(values);
        m.remove(key);
        m.put(key, new Value(text, origin));
        return new ConfigValues(Collections.unmodifiableMap(m));
    }

    /** These values without the keys {@code drop} accepts. */
    public ConfigValues without(Predicate<String> drop) {
        Map<String, Value> m = new LinkedHashMap<>(values);
        m.keySet().removeIf(drop);
        return new ConfigValues(Collections.unmodifiableMap(m));
    }

    /** These values with {@code higher} on top: its values win key by key. */
    public ConfigValues overlay(ConfigValues higher) {
        if (higher.values.isEmpty()) {
            return this;
        }
        Map<String, Value> m = new LinkedHashMap<>(values);
        m.keySet().removeAll(higher.values.keySet());
        m.putAll(higher.values);
        return new ConfigValues(Collections.unmodifiableMap(m));
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** The keys, in the order they were given. */
    public Set<String> keys() {
        return values.keySet();
    }

    /** The value of {@code key}, or null. */
    public Value get(String key) {
        return values.get(key);
    }

    /** The values as system properties: {@code millrace.<key>} to the text. */
    public Map<String, String> toSystemProperties() {
        Map<String, String> m = new LinkedHashMap<>();
        values.forEach((k, v) -> m.put(SYSTEM_PROPERTY_PREFIX + k, v.text()));
        return m;
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
