package io.millrace.api;

import java.util.List;

/**
 * Adds options to {@link ConfigOptions} from another module (e.g. a state backend's settings). Found with
 * {@link java.util.ServiceLoader}: list the implementation in
 * {@code META-INF/services/io.millrace.api.ConfigOptionProvider}. Called once, when the registry is first
 * used; keys must not clash with any other option.
 */
public interface ConfigOptionProvider {
    List<ConfigOption<?>> options();
}
