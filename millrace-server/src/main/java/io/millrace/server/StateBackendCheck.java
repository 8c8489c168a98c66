package io.millrace.server;

import io.millrace.api.ConfigException;
import io.millrace.api.ConfigOptions;
import io.millrace.api.ConfigValues;
import io.millrace.api.PipelineConfig;
import io.millrace.runtime.state.StateBackendProvider;
import java.util.List;
import java.util.TreeSet;

/**
 * What {@link ConfigOptions#validate} cannot check, because it needs the backends on the class path: that
 * {@code state.backend} names one (among the server's and the job jar's), and that this backend accepts its
 * options. Run by {@code millrace run} before the job's {@code main}, on the command's thread.
 */
final class StateBackendCheck {
    private StateBackendCheck() {}

    /**
     * Returns the selected backend's name.
     *
     * @param jobLoader the job jar's class loader, which may bring backends of its own
     * @throws ConfigException naming {@code state.backend}, its value, where it came from and the backends there
     *     are; or the backend's refusal of one of its options, which names that option
     */
    static String check(ConfigValues values, ClassLoader jobLoader) {
        PipelineConfig config = ConfigOptions.apply(PipelineConfig.defaults(), values);
        String name = config.stateBackend();
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(jobLoader);
        try {
            List<StateBackendProvider> providers = StateBackendProvider.available();
            for (StateBackendProvider p : providers) {
                if (p.name().equals(name)) {
                    try {
                        p.factory(config);
                    } catch (IllegalArgumentException e) {
                        throw new ConfigException(null, "state backend '" + name + "' refuses its options: " + e.getMessage());
                    }
                    return name;
                }
            }
            TreeSet<String> names = new TreeSet<>();
            providers.forEach(p -> names.add(p.name()));
            ConfigValues.Value given = values.get(ConfigOptions.STATE_BACKEND.key());
            String origin = given == null ? "default" : given.origin();
            throw new ConfigException(ConfigOptions.STATE_BACKEND.key(), "option '" + ConfigOptions.STATE_BACKEND.key()
                    + "' has an invalid value '" + name + "' (" + origin + "): no state backend of that name is on the class path."
                    + " Accepted: " + String.join(", ", names) + ".");
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}
