package io.millrace.sql.connector;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code WITH} options of one table, read by its connector. Every getter records the key as known; a missing
 * required option, a value that does not parse or is not one of the accepted ones, and (in {@link #checkAllUsed})
 * an option no getter asked for are {@link ConnectorException}s naming the option and what is accepted.
 */
public final class ConnectorOptions {
    private final String table;
    private final String connector;
    private final Map<String, String> options;
    private final Set<String> known = new HashSet<>();
    private final List<String> knownPrefixes = new ArrayList<>();

    private final List<String> primaryKey;

    public ConnectorOptions(String table, Map<String, String> options) {
        this(table, options, List.of());
    }

    /** The options of a table with the given primary key ({@code PRIMARY KEY (...) NOT ENFORCED}; empty for none). */
    public ConnectorOptions(String table, Map<String, String> options, List<String> primaryKey) {
        this.table = table;
        this.options = options;
        this.connector = options.get("connector");
        this.primaryKey = List.copyOf(primaryKey);
        known.add("connector");
    }

    public String table() {
        return table;
    }

    /** The table's primary key columns, in order; empty when it declares none. */
    public List<String> primaryKey() {
        return primaryKey;
    }

    /** The keys of the options that start with {@code prefix}, which become known; in the order they were given. */
    public List<String> keysWithPrefix(String prefix) {
        allowPrefix(prefix);
        List<String> keys = new ArrayList<>();
        for (String k : options.keySet()) {
            if (k.startsWith(prefix)) {
                keys.add(k);
            }
        }
        return keys;
    }

    /** The option's value, or null when it is not set. */
    public String get(String key) {
        known.add(key);
        return options.get(key);
    }

    public String required(String key, String accepted) {
        String v = get(key);
        if (v == null) {
            throw new ConnectorException("table '" + table + "' (connector '" + connector + "') needs option '" + key + "': " + accepted);
        }
        return v;
    }

    public String choice(String key, String defaultValue, String... accepted) {
        String v = get(key);
        if (v == null) {
            return defaultValue;
        }
        for (String a : accepted) {
            if (a.equalsIgnoreCase(v)) {
                return a;
            }
        }
        throw invalid(key, v, "one of " + String.join(", ", accepted));
    }

    public long getLong(String key, long defaultValue, long min) {
        String v = get(key);
        if (v == null) {
            return defaultValue;
        }
        try {
            long n = Long.parseLong(v.trim());
            if (n < min) {
                throw invalid(key, v, "a whole number of at least " + min);
            }
            return n;
        } catch (NumberFormatException e) {
            throw invalid(key, v, "a whole number of at least " + min);
        }
    }

    public double getDouble(String key, double defaultValue) {
        String v = get(key);
        if (v == null) {
            return defaultValue;
        }
        try {
            return Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw invalid(key, v, "a number");
        }
    }

    public boolean getBoolean(String key, boolean defaultValue) {
        String v = get(key);
        if (v == null) {
            return defaultValue;
        }
        if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(v);
        }
        throw invalid(key, v, "true or false");
    }

    /** A duration like {@code 10s}, {@code 500ms}, {@code 2min}, {@code 1h}, or a number of milliseconds. */
    public Duration getDuration(String key, Duration defaultValue) {
        String v = get(key);
        if (v == null) {
            return defaultValue;
        }
        String t = v.trim().toLowerCase(Locale.ROOT).replace(" ", "");
        try {
            if (t.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
            } else if (t.endsWith("min")) {
                return Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 3)));
            } else if (t.endsWith("s")) {
                return Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1)));
            } else if (t.endsWith("h")) {
                return Duration.ofHours(Long.parseLong(t.substring(0, t.length() - 1)));
            } else if (t.endsWith("d")) {
                return Duration.ofDays(Long.parseLong(t.substring(0, t.length() - 1)));
            }
            return Duration.ofMillis(Long.parseLong(t));
        } catch (NumberFormatException e) {
            throw invalid(key, v, "a duration like 500ms, 10s, 2min, 1h, 1d");
        }
    }

    /** Declares every option starting with {@code prefix} as known (per-field options). */
    public void allowPrefix(String prefix) {
        knownPrefixes.add(prefix);
    }

    /** Fails naming the first option that no getter asked for, listing the ones this connector takes. */
    public void checkAllUsed() {
        for (String key : options.keySet()) {
            if (!known.contains(key) && knownPrefixes.stream().noneMatch(key::startsWith)) {
                Set<String> accepted = new TreeSet<>(known);
                knownPrefixes.forEach(p -> accepted.add(p + "..."));
                throw new ConnectorException("table '" + table + "': unknown option '" + key + "' for connector '" + connector
                        + "'; its options are " + String.join(", ", accepted));
            }
        }
    }

    public ConnectorException invalid(String key, String value, String accepted) {
        return new ConnectorException("table '" + table + "': option '" + key + "' = '" + value + "' is invalid: expected " + accepted);
    }
}
