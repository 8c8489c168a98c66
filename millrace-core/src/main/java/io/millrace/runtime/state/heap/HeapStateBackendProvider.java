package io.millrace.runtime.state.heap;

import io.millrace.api.ConfigOptions;
import io.millrace.api.PipelineConfig;
import io.millrace.runtime.state.KeyedStateBackendFactory;
import io.millrace.runtime.state.StateBackendProvider;
import java.util.Map;

/**
 * The {@code heap} state backend, the default: keyed state in hash tables on the JVM heap. Its one option,
 * {@value #VALUES_OPTION} ({@code auto}, the default, {@code objects} or {@code serialized}; {@link HeapValues}),
 * says how values are kept.
 */
public final class HeapStateBackendProvider implements StateBackendProvider {
    public static final String NAME = "heap";
    /** Option name: how the heap backend keeps values, as objects or encoded in large byte arrays. */
    public static final String VALUES_OPTION = ConfigOptions.STATE_HEAP_VALUES.key();
    private static final String PREFIX = "state.heap.";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public KeyedStateBackendFactory factory(PipelineConfig config) {
        HeapValues values = values(config.stateBackendOptions());
        return KeyedStateBackendFactory.named(NAME,
                (operator, range, maxParallelism, clock) -> new HeapKeyedStateBackend(operator, range, maxParallelism, clock, values));
    }

    /** How the options ask values to be kept (auto when not given); fails naming an unknown heap option or a malformed value. */
    static HeapValues values(Map<String, String> options) {
        HeapValues values = HeapValues.AUTO;
        for (Map.Entry<String, String> e : options.entrySet()) {
            if (!e.getKey().startsWith(PREFIX)) {
                continue;
            }
            if (!e.getKey().equals(VALUES_OPTION)) {
                throw new IllegalArgumentException("unknown heap backend option '" + e.getKey() + "'; accepted: " + VALUES_OPTION);
            }
            values = HeapValues.of(e.getValue(), VALUES_OPTION);
        }
        return values;
    }
}
