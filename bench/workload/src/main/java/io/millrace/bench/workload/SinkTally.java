package io.millrace.bench.workload;

/**
 * What one sink subtask saw: results, the time of its last result, latencies. Written by that subtask's thread
 * only; read by the driver after the job has ended.
 */
public final class SinkTally {
    /**
     * A latency run times every result whose timestamp differs from the previous result's, and one in this many
     * (a power of two) of the others. A clock read costs about 45 ns on this kind of virtual machine, as much as
     * generating an event: read for every result, it made the half-rate latency run of the fastest queries a nearly
     * fully loaded one. Queries with one result per window still have every result timed.
     */
    static final int TIMED_EVERY = 8;
    private final Query query;
    private final long[] createdAt;
    private final long tableBase;
    private final long settleNanos;
    /** Creation time from which results are timed; 0 until the first result of a latency run looks it up. */
    private long timedFrom;
    private final LatencyHistogram latencies = new LatencyHistogram();
    long count;
    long lastNanos;
    private long stamped;
    /** The timestamp of the last timed result. */
    private long lastTimestamp = Long.MIN_VALUE;

    SinkTally(Query query, long[] createdAt, long tableBase, long settleNanos) {
        this.query = query;
        this.createdAt = createdAt;
        this.tableBase = tableBase;
        this.settleNanos = settleNanos;
    }

    /** One result with its timestamp (Long.MIN_VALUE: none). */
    public void onResult(long timestamp) {
        count++;
        if (createdAt != null) {
            if (timestamp != lastTimestamp || (count & (TIMED_EVERY - 1)) == 0) {
                lastTimestamp = timestamp;
                time(timestamp);
            }
        } else if ((count & 1023) == 0) {
            stamp();
        }
    }

    private void time(long timestamp) {
        long now = System.nanoTime();
        lastNanos = now;
        stamped = count;
        long slot = query.triggeringEventTime(timestamp) - tableBase;
        if (slot >= 0 && slot < createdAt.length) {
            long created = createdAt[(int) slot];
            if (created != 0 && created >= timedFrom()) {
                latencies.record((now - created) / 1000);
            }
        }
    }

    private long timedFrom() {
        if (timedFrom == 0) {
            timedFrom = Probe.firstEventNanos() + settleNanos; // a result comes after the first event
        }
        return timedFrom;
    }

    /**
     * The engine flushed the sink (on a watermark, when idle, at the end of input): if results came since the last
     * stamp, the time now is the time of the last result so far. Keeps {@code nanoTime} off the per-result path.
     */
    public void onFlush() {
        if (count != stamped) {
            stamp();
        }
    }

    private void stamp() {
        stamped = count;
        lastNanos = System.nanoTime();
    }

    LatencyHistogram latencies() {
        return latencies;
    }
}
