package io.millrace.bench.workload;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The measuring points shared by sources and sinks of one JVM, one run at a time: when the first event was
 * generated, when each event-time millisecond was first generated (latency runs only), and the sinks' tallies.
 * Engines run user functions as copies on several threads, so this state is static; the driver resets it before
 * each run and reads it after the job has ended.
 */
public final class Probe {
    private static final AtomicLong FIRST_EVENT = new AtomicLong();
    private static final ConcurrentLinkedQueue<SinkTally> TALLIES = new ConcurrentLinkedQueue<>();
    private static volatile Query query;
    private static boolean started;
    /** Latency runs: wall time (nanoTime) at which event time {@code tableBase + k} ms was first generated. */
    private static long[] createdAt;
    private static long tableBase;
    /** Latency runs: results of events created this long after the first event are timed; earlier ones are not. */
    private static long settleNanos;

    private Probe() {}

    /** Before a run without latency recording. */
    public static void reset(Query q, long base) {
        reset(q, base, 0, 0);
    }

    /**
     * Before a run; {@code eventTimeSpanMs > 0} turns latency recording on for event times from {@code base}, for
     * the results of events created at least {@code settleNanos} after the run's first event.
     */
    public static void reset(Query q, long base, long eventTimeSpanMs, long settleNanos) {
        query = q;
        FIRST_EVENT.set(0);
        TALLIES.clear();
        tableBase = base;
        Probe.settleNanos = settleNanos;
        createdAt = eventTimeSpanMs > 0 ? new long[(int) Math.min(Integer.MAX_VALUE - 8, eventTimeSpanMs + 1)] : null;
        started = false;
    }

    /** Called by a source for each event it creates, with its event time. */
    public static void onCreate(long eventTime) {
        if (!started) {
            FIRST_EVENT.compareAndSet(0, System.nanoTime());
            started = true;
        }
        long[] table = createdAt;
        if (table != null) {
            long slot = eventTime - tableBase;
            if (slot >= 0 && slot < table.length && table[(int) slot] == 0) {
                table[(int) slot] = System.nanoTime();
            }
        }
    }

    /** A new tally for one sink subtask. */
    public static SinkTally newTally() {
        SinkTally t = new SinkTally(query, createdAt, tableBase, settleNanos);
        TALLIES.add(t);
        return t;
    }

    /** When the run's first event was created (nanoTime), 0 before. */
    static long firstEventNanos() {
        return FIRST_EVENT.get();
    }

    /** The run's figures, after the job ended. */
    public static RunFigures collect() {
        long count = 0;
        long last = 0;
        LatencyHistogram all = new LatencyHistogram();
        for (SinkTally t : TALLIES) {
            count += t.count;
            last = Math.max(last, t.lastNanos);
            all.add(t.latencies());
        }
        return new RunFigures(count, FIRST_EVENT.get(), last, all);
    }

    /** Results, first event and last result times (nanoTime), latencies. */
    public record RunFigures(long results, long firstEventNanos, long lastResultNanos, LatencyHistogram latencies) {
        public double seconds() {
            return (lastResultNanos - firstEventNanos) / 1e9;
        }
    }
}
