package io.millrace.api;

import java.util.Objects;

/**
 * One setting of a pipeline that can be given outside the code: in a config file, as a system property
 * {@code millrace.<key>}, or with {@code millrace run -D key=value}. It has a key, a {@link ConfigType}, a
 * default, a description, and knows how to apply a parsed value to a {@link PipelineConfig}. The registry of
 * all options is {@link ConfigOptions}. Immutable and thread-safe.
 *
 * @param <T> the parsed value
 */
public final class ConfigOption<T> {
    /**
     * Applies a parsed value. Called once per option that has a value, in registry order, on the thread
     * that applies the configuration. Throws {@link IllegalArgumentException} when the value cannot be used
     * (the registry turns it into a {@link ConfigException} naming the key).
     */
    @FunctionalInterface
    public interface Applier<T> {
        /**
         * @param config the settings being built
         * @param value this option's parsed value
         * @param all every option's value (the parsed one or the default), for options that work as a group
         */
        void apply(PipelineConfig config, T value, Values all);
    }

    /** The parsed values of one configuration: the given value of an option, or its default. */
    public interface Values {
        /** The option's parsed value, or its default when it was not given (null if it has none). */
        <V> V get(ConfigOption<V> option);

        /** Whether the option was given. */
        boolean isSet(ConfigOption<?> option);
    }

    private final String key;
    private final ConfigType<T> type;
    private final T defaultValue;
    private final String defaultText;
    private final String description;
    private final Applier<T> applier;

    private ConfigOption(String key, ConfigType<T> type, T defaultValue, String defaultText, String description, Applier<T> applier) {
        if (!key.matches("[a-z][a-z0-9-]*(\\.[a-z][a-z0-9-]*)*")) {
            throw new IllegalArgumentException("option key '" + key + "' must be lower-case words with dashes, separated by dots");
        }
        this.key = key;
        this.type = Objects.requireNonNull(type, "type");
        this.defaultValue = defaultValue;
        this.defaultText = Objects.requireNonNull(defaultText, "defaultText");
        this.description = Objects.requireNonNull(description, "description");
        this.applier = Objects.requireNonNull(applier, "applier");
    }

    /**
     * An option.
     *
     * @param key e.g. {@code checkpoint.interval}: lower-case words with dashes, separated by dots
     * @param defaultValue the value other options of a group see when this one is not given; may be null
     * @param defaultText the default as the docs show it, e.g. {@code 10s} or {@code number of cores}
     * @param description one sentence: what the option does
     */
    public static <T> ConfigOption<T> of(String key, ConfigType<T> type, T defaultValue, String defaultText,
            String description, Applier<T> applier) {
        return new ConfigOption<>(key, type, defaultValue, defaultText, description, applier);
    }

    public String key() {
        return key;
    }

    public ConfigType<T> type() {
        return type;
    }

    /** The default, or null when the default is not a fixed value (e.g. the number of cores). */
    public T defaultValue() {
        return defaultValue;
    }

    public String defaultText() {
        return defaultText;
    }

    /** What the option accepts, in words. */
    public String accepted() {
        return type.accepted();
    }

    public String description() {
        return description;
    }

    /** The system property that sets this option: {@code millrace.<key>}. */
    public String systemProperty() {
        return ConfigValues.SYSTEM_PROPERTY_PREFIX + key;
    }

    void apply(PipelineConfig config, Object value, Values all) {
        @SuppressWarnings("unchecked")
        T typed = (T) value;
        applier.apply(config, typed, all);
    }

    @Override
    public String toString() {
        return key;
    }
}
