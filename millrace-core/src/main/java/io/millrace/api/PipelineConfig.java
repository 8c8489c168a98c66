package io.millrace.api;

import io.millrace.api.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Settings of a pipeline. Every setter checks its value and names the option in its error.
 *
 * <p>{@code new PipelineConfig()} starts from the defaults below and applies the {@code millrace.*} system
 * properties (e.g. {@code -Dmillrace.checkpoint.dir=/var/lib/job}; {@code millrace run} sets them from its
 * config file and flags), so a job can be configured from outside its code. Setter calls made afterwards win.
 * {@link #defaults()} ignores the system properties. The keys are listed in {@link ConfigOptions} and
 * {@code docs/configuration.md}.
 *
 * <table>
 * <tr><th>option</th><th>default</th><th>meaning</th></tr>
 * <tr><td>parallelism</td><td>available cores</td><td>subtasks per operator unless the operator sets its own</td></tr>
 * <tr><td>maxParallelism</td><td>128</td><td>number of key groups; the upper bound for rescaling</td></tr>
 * <tr><td>batchSize</td><td>512</td><td>records per batch crossing a thread</td></tr>
 * <tr><td>channelCapacity</td><td>32</td><td>the most batches a channel between two subtasks holds before the producer waits</td></tr>
 * <tr><td>channelInFlightTarget</td><td>100 ms</td><td>each channel is bounded to about this much of its consumer's
 *     reading (at least 2 batches, at most the capacity); 0 keeps every channel at its capacity</td></tr>
 * <tr><td>bufferTimeout</td><td>10 ms</td><td>longest a partial batch waits before it is sent</td></tr>
 * <tr><td>watermarkInterval</td><td>1 ms</td><td>longest a watermark crossing a thread is held back to go together
 *     with later ones (at most the buffer timeout); 0 sends each at once</td></tr>
 * <tr><td>clock</td><td>system</td><td>processing time</td></tr>
 * <tr><td>checkpoints</td><td>off</td><td>see {@link CheckpointConfig}</td></tr>
 * <tr><td>restartStrategy</td><td>none</td><td>see {@link RestartStrategy}</td></tr>
 * <tr><td>stateBackend</td><td>heap</td><td>where keyed state lives: {@code heap} or {@code rocksdb} (with the
 *     millrace-rocksdb module on the class path)</td></tr>
 * <tr><td>localWindowAggregation</td><td>true</td><td>eligible event-time windows pre-aggregate per key and slice
 *     before the keyed exchange (see docs/windows.md, "Local aggregation")</td></tr>
 * <tr><td>localWindowAggregationMaxKeys</td><td>16384</td><td>the most (key, slice) partials one such pre-aggregating
 *     subtask holds before it emits them all</td></tr>
 * <tr><td>stateBackendOption</td><td>none</td><td>backend settings by option name, e.g.
 *     {@code state.rocksdb.managed-memory = 256mb}; the selected backend checks them when the job starts</td></tr>
 * </table>
 */
public final class PipelineConfig implements java.io.Serializable {
    private int parallelism = Runtime.getRuntime().availableProcessors();
    private int maxParallelism = 128;
    private int batchSize = 512;
    private int channelCapacity = 32;
    private Duration channelInFlightTarget = Duration.ofMillis(100);
    private Duration bufferTimeout = Duration.ofMillis(10);
    private Duration watermarkInterval = Duration.ofMillis(1);
    private transient Clock clock = Clock.system();
    private CheckpointConfig checkpoints = new CheckpointConfig();
    private RestartStrategy restartStrategy = RestartStrategy.none();
    private String stateBackend = "heap";
    private boolean localWindowAggregation = true;
    private int localWindowAggregationMaxKeys = 16_384;
    private TreeMap<String, String> stateBackendOptions = new TreeMap<>();

    /**
     * The defaults, overlaid with the {@code millrace.*} system properties.
     *
     * @throws ConfigException when such a property names an unknown option or has a value it refuses
     */
    public PipelineConfig() {
        ConfigValues fromSystem = ConfigValues.fromSystemProperties();
        if (!fromSystem.isEmpty()) {
            ConfigOptions.apply(this, fromSystem);
        }
    }

    private PipelineConfig(Void defaultsOnly) {}

    /** The built-in defaults only, whatever the system properties say. */
    public static PipelineConfig defaults() {
        return new PipelineConfig((Void) null);
    }

    public int parallelism() {
        return parallelism;
    }

    public PipelineConfig parallelism(int value) {
        this.parallelism = requireRange("parallelism", value, 1, 32_768);
        return this;
    }

    public int maxParallelism() {
        return maxParallelism;
    }

    public PipelineConfig maxParallelism(int value) {
        this.maxParallelism = requireRange("maxParallelism", value, 1, 32_768);
        return this;
    }

    public int batchSize() {
        return batchSize;
    }

    public PipelineConfig batchSize(int value) {
        this.batchSize = requireRange("batchSize", value, 1, 1 << 20);
        return this;
    }

    public int channelCapacity() {
        return channelCapacity;
    }

    public PipelineConfig channelCapacity(int value) {
        this.channelCapacity = requireRange("channelCapacity", value, 1, 1 << 16);
        return this;
    }

    /** How much of its consumer's reading time a channel holds; zero: channels stay at their capacity. */
    public Duration channelInFlightTarget() {
        return channelInFlightTarget;
    }

    public PipelineConfig channelInFlightTarget(Duration value) {
        Objects.requireNonNull(value, "channelInFlightTarget");
        if (value.isNegative()) {
            throw new IllegalArgumentException("channelInFlightTarget must be zero or positive, was " + value);
        }
        this.channelInFlightTarget = value;
        return this;
    }

    public Duration bufferTimeout() {
        return bufferTimeout;
    }

    public PipelineConfig bufferTimeout(Duration value) {
        Objects.requireNonNull(value, "bufferTimeout");
        if (value.isNegative()) {
            throw new IllegalArgumentException("bufferTimeout must be zero or positive, was " + value);
        }
        this.bufferTimeout = value;
        return this;
    }

    public Duration watermarkInterval() {
        return watermarkInterval;
    }

    /**
     * How long a watermark crossing a thread may be held back so that it goes out together with later ones:
     * sending one flushes every partial batch of the edge and wakes every consumer, and sources move their
     * watermark after every poll. Holding it back only makes it arrive later (never longer than the buffer
     * timeout); records between it and the next one sent then meet the older watermark downstream, so fewer
     * of them count as late. {@code Duration.ZERO} sends every watermark at once.
     */
    public PipelineConfig watermarkInterval(Duration value) {
        Objects.requireNonNull(value, "watermarkInterval");
        if (value.isNegative()) {
            throw new IllegalArgumentException("watermarkInterval must be zero or positive, was " + value);
        }
        this.watermarkInterval = value;
        return this;
    }

    public Clock clock() {
        return clock == null ? Clock.system() : clock;
    }

    public PipelineConfig clock(Clock value) {
        this.clock = Objects.requireNonNull(value, "clock");
        return this;
    }

    /** Checkpoint settings; change them in place: {@code config.checkpoints().directory(dir).interval(...)}. */
    public CheckpointConfig checkpoints() {
        return checkpoints;
    }

    public RestartStrategy restartStrategy() {
        return restartStrategy;
    }

    public PipelineConfig restartStrategy(RestartStrategy value) {
        this.restartStrategy = Objects.requireNonNull(value, "restartStrategy");
        return this;
    }

    /** Name of the keyed state backend; {@code heap} by default. */
    public String stateBackend() {
        return stateBackend;
    }

    /**
     * Selects the keyed state backend by name ({@code heap}, {@code rocksdb}, or another registered one). An
     * unknown name fails when the job starts, listing the backends on the class path.
     */
    public PipelineConfig stateBackend(String name) {
        Objects.requireNonNull(name, "stateBackend");
        if (name.isBlank()) {
            throw new IllegalArgumentException("option 'stateBackend' must name a state backend (heap, rocksdb), was blank");
        }
        this.stateBackend = name.trim();
        return this;
    }

    /** Backend options by name (sorted, unmodifiable). */
    public Map<String, String> stateBackendOptions() {
        return Collections.unmodifiableMap(stateBackendOptions);
    }

    /**
     * Sets one option of the state backend, e.g. {@code stateBackendOption("state.rocksdb.managed-memory", "256mb")};
     * the backend rejects options it does not know, naming the ones it accepts.
     */
    public PipelineConfig stateBackendOption(String option, String value) {
        Objects.requireNonNull(option, "stateBackendOption name");
        Objects.requireNonNull(value, () -> "value of state backend option '" + option + "'");
        stateBackendOptions.put(option, value);
        return this;
    }

    /** Whether eligible windows pre-aggregate before their keyed exchange; true by default. */
    public boolean localWindowAggregation() {
        return localWindowAggregation;
    }

    /**
     * Turns local (two-phase) window aggregation on or off: with it, event-time tumbling and sliding windows with
     * the default trigger, a reduce or aggregate function, no allowed lateness and no late-data side output fold
     * their records per key and slice in the producing subtask and send one partial per (key, slice) through the
     * keyed exchange. Results are the same either way.
     */
    public PipelineConfig localWindowAggregation(boolean value) {
        this.localWindowAggregation = value;
        return this;
    }

    /** The most (key, slice) partials a pre-aggregating subtask holds before it emits them all; 16384 by default. */
    public int localWindowAggregationMaxKeys() {
        return localWindowAggregationMaxKeys;
    }

    public PipelineConfig localWindowAggregationMaxKeys(int value) {
        this.localWindowAggregationMaxKeys = requireRange("localWindowAggregationMaxKeys", value, 1, 1 << 24);
        return this;
    }

    private static int requireRange(String option, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    "option '" + option + "' must be between " + min + " and " + max + ", was " + value);
        }
        return value;
    }

    public PipelineConfig copy() {
        PipelineConfig c = defaults();
        c.parallelism = parallelism;
        c.maxParallelism = maxParallelism;
        c.batchSize = batchSize;
        c.channelCapacity = channelCapacity;
        c.channelInFlightTarget = channelInFlightTarget;
        c.bufferTimeout = bufferTimeout;
        c.watermarkInterval = watermarkInterval;
        c.clock = clock;
        c.checkpoints = checkpoints.copy();
        c.restartStrategy = restartStrategy;
        c.stateBackend = stateBackend;
        c.stateBackendOptions = new TreeMap<>(stateBackendOptions);
        c.localWindowAggregation = localWindowAggregation;
        c.localWindowAggregationMaxKeys = localWindowAggregationMaxKeys;
        return c;
    }
}
