package io.millrace.bench.workload;

/**
 * Maps the sequence numbers of a source whose {@code p} readers each read a contiguous range of length
 * {@code count / p} (Millrace's bounded {@code GeneratorSource}, Flink's {@code DataGeneratorSource}) to event
 * indices interleaved across readers: reader {@code k}'s {@code j}-th record is event {@code j * p + k}. Every
 * reader then advances through event time at the same pace, as the splits of a real Nexmark source do, and the
 * watermark (the minimum over readers) keeps up. A bijection on {@code [0, count)} whatever the ranges are, so
 * the set of events never depends on how the engine cuts the ranges.
 */
public final class Interleave implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private final long count;
    private final long rangeLength;
    private final int parallelism;
    private final Divisor ranges;

    /** {@code count} must be a positive multiple of {@code parallelism}. */
    public Interleave(long count, int parallelism) {
        if (count <= 0 || count % parallelism != 0) {
            throw new IllegalArgumentException("count " + count + " must be a positive multiple of parallelism " + parallelism);
        }
        this.count = count;
        this.parallelism = parallelism;
        this.rangeLength = count / parallelism;
        this.ranges = new Divisor(rangeLength);
    }

    /** The largest multiple of {@code parallelism} not above {@code events} (at least {@code parallelism}). */
    public static long roundCount(long events, int parallelism) {
        return Math.max(parallelism, events - events % parallelism);
    }

    public long count() {
        return count;
    }

    public long eventIndex(long sequence) {
        long range = ranges.divide(sequence);
        return (sequence - range * rangeLength) * parallelism + range;
    }
}
