package io.millrace.bench.workload;

import java.util.Locale;

/**
 * A benchmark run's settings, parsed from {@code --name value} arguments; the same for every engine.
 *
 * <table>
 * <tr><th>option</th><th>default</th><th>meaning</th></tr>
 * <tr><td>--query</td><td>q0</td><td>see {@link Query}</td></tr>
 * <tr><td>--events</td><td>10,000,000</td><td>events of the measured run (rounded down to a multiple of the parallelism)</td></tr>
 * <tr><td>--warmup-events</td><td>events / 4</td><td>events of each warm-up run before it, same JVM</td></tr>
 * <tr><td>--warmup-seconds</td><td>8</td><td>warm-up runs are repeated until they have taken this long (at least one)</td></tr>
 * <tr><td>--parallelism</td><td>2</td><td>subtasks of every operator</td></tr>
 * <tr><td>--backend</td><td>heap</td><td>heap or rocksdb keyed state</td></tr>
 * <tr><td>--event-rate</td><td>100,000</td><td>events per second of event time</td></tr>
 * <tr><td>--checkpoint-interval-ms</td><td>2000</td><td>exactly-once checkpoints; 0 turns them off</td></tr>
 * <tr><td>--watermark-alignment-ms</td><td>1000</td><td>the source subtasks' watermarks are kept within this many ms of
 * each other (each engine's watermark alignment); 0 turns it off</td></tr>
 * <tr><td>--latency-seconds</td><td>5</td><td>length of the latency run at half the sustainable rate; 0 skips it</td></tr>
 * <tr><td>--latency-rate</td><td>half the sustainable rate</td><td>input rate of the latency run, events/s; by default half
 * the measured rate, or of a longer unpaced run's rate when that is lower ({@link BenchDriver#latencyRate})</td></tr>
 * <tr><td>--seed</td><td>42</td><td>generator seed</td></tr>
 * <tr><td>--second-step</td><td>each query's plan</td><td>q5 and q7 on the DataStream engines: a window per auction,
 * then the best of each window by a keyed process function with a timer ({@code process}) or by a tumbling window
 * {@code reduce} keyed by window end ({@code reduce}, q5's default); q7's default is one window over all bids.
 * Results are the same; other plans than the default are labelled {@code q5/process}, {@code q7/process},
 * {@code q7/reduce}</td></tr>
 * </table>
 */
public final class BenchOptions implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** Event time of event 0 (2024-01-01T00:00:00Z). */
    public static final long BASE_TIME = 1_704_067_200_000L;

    public Query query = Query.Q0;
    public long events = 10_000_000;
    public long warmupEvents = -1;
    /**
     * Warm-up runs repeat until they have taken this many seconds together: the compilers keep improving a fast
     * engine's code for several seconds, longer than one warm-up run of a fast query takes.
     */
    public double warmupSeconds = 8;
    public int parallelism = 2;
    public String backend = "heap";
    public long eventRate = 100_000;
    public long checkpointIntervalMs = 2_000;
    /**
     * Drift allowed between the watermarks of the source subtasks, or 0 for none: without a bound, one generator
     * subtask that reads a little faster runs ahead in event time over a long run, and windows and joins hold the state
     * of that drift (see docs/benchmarks.md). Both engines use their own alignment with this drift.
     */
    public long watermarkAlignmentMs = 1_000;
    public double latencySeconds = 5;
    public double latencyRate = -1;
    public long seed = 42;
    /** Measured runs in the JVM after the warm-up; the median one (by rate) is reported. */
    public int runs = 1;
    /**
     * {@code --second-step}: how q5 and q7 take the best of each window from a first, keyed window: "process" (a
     * keyed process function with a timer) or "reduce" (a tumbling window reduce keyed by window end); null for
     * each query's default (see {@link #bestOfWindow}).
     */
    public String secondStep;

    public static BenchOptions parse(String... args) {
        BenchOptions o = new BenchOptions();
        for (int k = 0; k < args.length; k += 2) {
            if (k + 1 >= args.length) {
                throw new IllegalArgumentException("option " + args[k] + " needs a value");
            }
            String v = args[k + 1];
            switch (args[k]) {
                case "--query" -> o.query = Query.of(v);
                case "--events" -> o.events = parseCount(v);
                case "--warmup-events" -> o.warmupEvents = parseCount(v);
                case "--warmup-seconds" -> o.warmupSeconds = Double.parseDouble(v);
                case "--parallelism" -> o.parallelism = Integer.parseInt(v);
                case "--backend" -> o.backend = backend(v);
                case "--event-rate" -> o.eventRate = parseCount(v);
                case "--checkpoint-interval-ms" -> o.checkpointIntervalMs = Long.parseLong(v);
                case "--watermark-alignment-ms" -> o.watermarkAlignmentMs = Long.parseLong(v);
                case "--latency-seconds" -> o.latencySeconds = Double.parseDouble(v);
                case "--latency-rate" -> o.latencyRate = Double.parseDouble(v);
                case "--seed" -> o.seed = Long.parseLong(v);
                case "--runs" -> o.runs = Integer.parseInt(v);
                case "--second-step" -> o.secondStep = secondStep(v);
                default -> throw new IllegalArgumentException("unknown option " + args[k]);
            }
        }
        if (o.runs < 1) {
            throw new IllegalArgumentException("--runs must be at least 1, was " + o.runs);
        }
        if (o.watermarkAlignmentMs < 0) {
            throw new IllegalArgumentException("--watermark-alignment-ms must not be negative, was " + o.watermarkAlignmentMs);
        }
        if (o.parallelism < 1) {
            throw new IllegalArgumentException("--parallelism must be at least 1, was " + o.parallelism);
        }
        return o;
    }

    /** Checkpoints during the warm-up run are at most this far apart, so that it compiles each engine's checkpoint code. */
    public static final long WARMUP_CHECKPOINT_INTERVAL_MS = 200;

    /**
     * The options of the warm-up run: the same, except that checkpoints (when on) come at least every
     * {@link #WARMUP_CHECKPOINT_INTERVAL_MS} ms. A warm-up shorter than the checkpoint interval would otherwise leave
     * the checkpoint code cold, and the first checkpoint of the measured or latency run would stall on it.
     */
    public BenchOptions forWarmup() {
        BenchOptions o = new BenchOptions();
        o.query = query;
        o.events = events;
        o.warmupEvents = warmupEvents;
        o.warmupSeconds = warmupSeconds;
        o.parallelism = parallelism;
        o.backend = backend;
        o.eventRate = eventRate;
        o.checkpointIntervalMs = checkpointIntervalMs > 0 ? Math.min(checkpointIntervalMs, WARMUP_CHECKPOINT_INTERVAL_MS) : 0;
        o.watermarkAlignmentMs = watermarkAlignmentMs;
        o.latencySeconds = latencySeconds;
        o.latencyRate = latencyRate;
        o.seed = seed;
        o.secondStep = secondStep;
        return o;
    }

    /**
     * How q5 or q7 finds the best of each window; null for the other queries. "all": q7 as one window over all bids
     * ({@code windowAll}, its default); "process" or "reduce": a keyed window per auction first, then the second step
     * of {@link #secondStep} (q5's default is "reduce": its counts per auction need the keyed window, and the best of
     * them is one more aggregation, which an engine may pre-aggregate where the counts are made).
     */
    public String bestOfWindow() {
        if (query != Query.Q5 && query != Query.Q7) {
            return null;
        }
        return secondStep != null ? secondStep : defaultBestOfWindow();
    }

    private String defaultBestOfWindow() {
        return query == Query.Q7 ? "all" : "reduce";
    }

    /** The query as result lines name it: its id, with "/process" or "/reduce" when not the query's default plan. */
    public String queryLabel() {
        String best = bestOfWindow();
        return best == null || best.equals(defaultBestOfWindow()) ? query.id() : query.id() + "/" + best;
    }

    private static String secondStep(String v) {
        if (!v.equals("process") && !v.equals("reduce")) {
            throw new IllegalArgumentException("--second-step is process or reduce, not " + v);
        }
        return v;
    }

    /** Warm-up events, a multiple of the parallelism. */
    public long warmup() {
        return Interleave.roundCount(warmupEvents >= 0 ? warmupEvents : events / 4, parallelism);
    }

    /** Accepts 10000000, 10_000_000, 10M, 500k. */
    public static long parseCount(String v) {
        String s = v.replace("_", "").toLowerCase(Locale.ROOT);
        long unit = 1;
        if (s.endsWith("k")) {
            unit = 1_000;
        } else if (s.endsWith("m")) {
            unit = 1_000_000;
        } else if (s.endsWith("g")) {
            unit = 1_000_000_000;
        }
        if (unit > 1) {
            s = s.substring(0, s.length() - 1);
        }
        return (long) (Double.parseDouble(s) * unit);
    }

    private static String backend(String v) {
        if (!v.equals("heap") && !v.equals("rocksdb")) {
            throw new IllegalArgumentException("--backend must be heap or rocksdb, was " + v);
        }
        return v;
    }
}
