package io.millrace.bench.workload;

/**
 * Latencies in microseconds, log-linear buckets with 1/32 relative precision up to about 10^12 µs. Recording is an
 * array increment; single writer (one sink subtask), merged after the run.
 */
public final class LatencyHistogram {
    private static final int SUB_BITS = 5;
    private static final int SUB = 1 << SUB_BITS;
    private final long[] counts = new long[64 * SUB];
    private long total;

    public void record(long micros) {
        counts[bucket(Math.max(0, micros))]++;
        total++;
    }

    public long total() {
        return total;
    }

    public void add(LatencyHistogram other) {
        for (int b = 0; b < counts.length; b++) {
            counts[b] += other.counts[b];
        }
        total += other.total;
    }

    /** The value at quantile {@code q} (0..1) in microseconds (the bucket's upper bound), or -1 when empty. */
    public long quantile(double q) {
        if (total == 0) {
            return -1;
        }
        long rank = Math.max(1, (long) Math.ceil(q * total));
        long seen = 0;
        for (int b = 0; b < counts.length; b++) {
            seen += counts[b];
            if (seen >= rank) {
                return upperBound(b);
            }
        }
        return upperBound(counts.length - 1);
    }

    static int bucket(long v) {
        if (v < SUB) {
            return (int) v;
        }
        int shift = 63 - Long.numberOfLeadingZeros(v) - SUB_BITS;
        return shift * SUB + (int) (v >>> shift);
    }

    static long upperBound(int b) {
        if (b < 2 * SUB) {
            return b;
        }
        int shift = b / SUB - 1;
        long mantissa = b - (long) shift * SUB;
        return ((mantissa + 1) << shift) - 1;
    }
}
