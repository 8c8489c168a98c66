package io.millrace.runtime.state;

import io.millrace.api.PipelineConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeSet;

/**
 * A keyed state backend that a pipeline can select by name ({@link PipelineConfig#stateBackend(String)}).
 * Modules register implementations as {@link ServiceLoader} services; core registers {@code heap}.
 * Called once per job submission, on the submitting thread.
 */
public interface StateBackendProvider {
    /** The name a pipeline selects it by, e.g. {@code heap} or {@code rocksdb}. */
    String name();

    /**
     * The factory for a job with this configuration. Reads the options of this backend from
     * {@link PipelineConfig#stateBackendOptions()} and fails with IllegalArgumentException naming the
     * option and the accepted values when one is unknown or malformed.
     */
    KeyedStateBackendFactory factory(PipelineConfig config);

    /**
     * The factory of the backend the configuration selects. Fails with IllegalArgumentException naming the option
     * and listing the available backends when none on the class path has that name.
     */
    static KeyedStateBackendFactory resolve(PipelineConfig config) {
        String name = config.stateBackend();
        List<StateBackendProvider> providers = available();
        for (StateBackendProvider p : providers) {
            if (p.name().equals(name)) {
                return p.factory(config);
            }
        }
        throw new IllegalArgumentException(unknownBackend(name, providers));
    }

    /**
     * The registered backends: those of the class loader of this interface, then those of the calling thread's
     * context class loader (a job jar may bring its own).
     */
    static List<StateBackendProvider> available() {
        List<StateBackendProvider> providers = new ArrayList<>();
        ServiceLoader.load(StateBackendProvider.class, StateBackendProvider.class.getClassLoader()).forEach(providers::add);
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (context != null && context != StateBackendProvider.class.getClassLoader()) {
            ServiceLoader.load(StateBackendProvider.class, context).forEach(providers::add);
        }
        return providers;
    }

    /** Why {@code name} selects no backend of {@code providers}: names the option and lists the backends there are. */
    static String unknownBackend(String name, List<StateBackendProvider> providers) {
        TreeSet<String> names = new TreeSet<>();
        providers.forEach(p -> names.add(p.name()));
        return "unknown state backend '" + name + "' (option state.backend, PipelineConfig.stateBackend); available: "
                + String.join(", ", names)
                + (name.equals("rocksdb") ? " (add the millrace-rocksdb module to the class path)" : "");
    }
}
