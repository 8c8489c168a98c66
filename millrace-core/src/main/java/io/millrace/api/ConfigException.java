package io.millrace.api;

/**
 * A configuration value that cannot be used. The message names the option key, the value as given, where it
 * came from (a file and line, a system property, a command-line flag) and what the option accepts.
 */
public final class ConfigException extends IllegalArgumentException {
    private final String key;

    public ConfigException(String key, String message) {
        super(message);
        this.key = key;
    }

    /** The option key this error is about, e.g. {@code checkpoint.interval}; null for a config file line without a key. */
    public String key() {
        return key;
    }
}
