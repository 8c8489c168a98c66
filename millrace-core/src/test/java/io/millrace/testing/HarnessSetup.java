package io.millrace.testing;

import io.millrace.api.functions.KeySelector;
import io.millrace.api.time.ManualClock;
import io.millrace.operator.OperatorMetricGroup;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.KeyedStateBackendFactory;
import io.millrace.runtime.state.heap.HeapKeyedStateBackend;

/**
 * How a harness runs its operator: name, subtask, key selectors and the start of processing time.
 * Defaults: name "operator", subtask 0 of 1, maxParallelism 128, processing time 0, not keyed. Keyed
 * setups get a real {@link HeapKeyedStateBackend} for the subtask's key groups, or the backend of the
 * factory given to {@link #backend}.
 */
public final class HarnessSetup<H> {
    private final Opener<H> factory;
    private String name = "operator";
    private int subtask;
    private int parallelism = 1;
    private int maxParallelism = 128;
    private long processingTime;
    private KeySelector<Object, Object> selector1;
    private KeySelector<Object, Object> selector2;
    private BackendRestore restore;
    private KeyedStateBackendFactory backends;
    private boolean restoreBetweenInputs = true;

    HarnessSetup(Opener<H> factory) {
        this.factory = factory;
    }

    public HarnessSetup<H> name(String name) {
        this.name = name;
        return this;
    }

    public HarnessSetup<H> subtask(int index, int parallelism) {
        this.subtask = index;
        this.parallelism = parallelism;
        return this;
    }

    public HarnessSetup<H> maxParallelism(int maxParallelism) {
        this.maxParallelism = maxParallelism;
        return this;
    }

    /** Initial processing time of the harness's ManualClock. */
    public HarnessSetup<H> processingTime(long millis) {
        this.processingTime = millis;
        return this;
    }

    /** Keys input 0; input 1 of a two-input operator is then a broadcast (non-keyed) input. */
    public HarnessSetup<H> keyedBy(KeySelector<?, ?> selector) {
        return keyedBy(selector, null);
    }

    /** Keys both inputs; a null {@code second} makes input 1 a broadcast (non-keyed) input. */
    @SuppressWarnings("unchecked")
    public HarnessSetup<H> keyedBy(KeySelector<?, ?> first, KeySelector<?, ?> second) {
        this.selector1 = (KeySelector<Object, Object>) first;
        this.selector2 = (KeySelector<Object, Object>) second;
        return this;
    }

    /**
     * Fills the keyed backend before the operator opens, as a task restoring a checkpoint does (for
     * example by calling {@code restoreKeyGroup} for each owned key group).
     */
    public HarnessSetup<H> restoring(BackendRestore restore) {
        this.restore = restore;
        return this;
    }

    /** Keyed state in backends of this factory instead of the heap backend. */
    public HarnessSetup<H> backend(KeyedStateBackendFactory factory) {
        this.backends = factory;
        return this;
    }

    /**
     * Whether a harness built from an operator factory checkpoints the operator after every input and
     * continues with a fresh instance restored from that checkpoint (default: yes). A harness built from an
     * operator instance cannot and never does.
     */
    public HarnessSetup<H> restoreBetweenInputs(boolean restore) {
        this.restoreBetweenInputs = restore;
        return this;
    }

    boolean restoresBetweenInputs() {
        return restoreBetweenInputs;
    }

    /** Creates the harness and opens its operator. */
    public H open() throws Exception {
        return factory.open(this);
    }

    HarnessContext context(ManualClock clock) {
        return context(clock, -1, new OperatorMetricGroup(name, subtask));
    }

    /** A context with a new, empty backend; {@code restoredCheckpointId} -1 for a fresh start. */
    HarnessContext context(ManualClock clock, long restoredCheckpointId, OperatorMetricGroup metrics) {
        KeyGroupRange range = KeyGroups.rangeFor(subtask, maxParallelism, parallelism);
        KeyedStateBackend backend = selector1 == null
                ? null
                : backends == null
                        ? new HeapKeyedStateBackend(range, maxParallelism, clock)
                        : backends.create(name, range, maxParallelism, clock);
        return new HarnessContext(name, subtask, parallelism, maxParallelism, clock,
                metrics, backend, selector1, selector2,
                restoredCheckpointId, restoredCheckpointId < 0 ? -1 : parallelism);
    }

    void restore(KeyedStateBackend backend) throws Exception {
        if (restore != null) {
            if (backend == null) {
                throw new IllegalStateException("restoring needs a keyed harness: call keyedBy first");
            }
            restore.restore(backend);
        }
    }

    long startProcessingTime() {
        return processingTime;
    }

    /** Restores state into a fresh backend before the operator opens. */
    @FunctionalInterface
    public interface BackendRestore {
        void restore(KeyedStateBackend backend) throws Exception;
    }

    /** Builds and opens a harness from a setup. */
    interface Opener<H> {
        H open(HarnessSetup<H> setup) throws Exception;
    }
}
