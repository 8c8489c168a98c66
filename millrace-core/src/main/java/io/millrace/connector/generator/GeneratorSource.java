package io.millrace.connector.generator;

import io.millrace.api.source.Boundedness;
import io.millrace.api.source.Source;
import io.millrace.api.source.SourceReader;
import io.millrace.api.source.SourceReaderContext;
import io.millrace.connector.pacing.RateLimit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A replayable source of generated records: record {@code i} is {@code function.apply(i)}, for
 * {@code i} in {@code [0, count)} or without end. The indices are split over the readers (one split
 * per subtask; see {@link IndexRange}); a split's position is the next index, so a reader restored from
 * a snapshot emits exactly the records that were not emitted before it.
 *
 * <p>The total rate (records per second over all subtasks) is paced by the reader context's
 * {@link io.millrace.api.time.Clock}: each reader gets {@code rate / parallelism}, counted from one origin
 * shared by the readers of a start of the job in this process (the first poll of any of them); a reader ahead
 * of schedule returns {@code NOTHING_AVAILABLE}. Records carry the timestamps of {@link
 * Builder#timestamps} if given, otherwise none (assign them with the watermark strategy).
 *
 * <pre>{@code
 * GeneratorSource<String> source = GeneratorSource.builder(i -> "event-" + i)
 *         .count(1_000_000)
 *         .ratePerSecond(10_000)
 *         .build();
 * }</pre>
 */
public final class GeneratorSource<T> implements Source<T, IndexRange> {
    /** The most records a reader emits per poll. */
    static final int BATCH = 512;

    private final GeneratorFunction<T> function;
    private final long count;
    private final double ratePerSecond;
    private final IndexTimestamps timestamps;
    /** The pacing origins of the readers of each start of the job, in this process. */
    private transient RateLimit.Origins origins;

    private GeneratorSource(Builder<T> b) {
        this.function = b.function;
        this.count = b.count;
        this.ratePerSecond = b.ratePerSecond;
        this.timestamps = b.timestamps;
    }

    /** A bounded source of {@code count} records, without rate limit or timestamps. */
    public static <T> GeneratorSource<T> of(GeneratorFunction<T> function, long count) {
        return builder(function).count(count).build();
    }

    public static <T> Builder<T> builder(GeneratorFunction<T> function) {
        return new Builder<>(function);
    }

    /** The number of records, or -1 when unbounded. */
    public long count() {
        return count;
    }

    @Override
    public io.millrace.api.source.VersionedCodec<IndexRange> splitCodec() {
        return new IndexRangeCodec();
    }

    /** Version 1: the split's fields in declaration order. */
    static final class IndexRangeCodec extends io.millrace.api.source.DataCodec<IndexRange> {
        private static final long serialVersionUID = 1L;

        @Override
        public int version() {
            return 1;
        }

        @Override
        protected void write(IndexRange s, java.io.DataOutputStream out) throws java.io.IOException {
            out.writeUTF(s.splitId());
            out.writeLong(s.next());
            out.writeLong(s.end());
            out.writeLong(s.stride());
        }

        @Override
        protected IndexRange read(int version, java.io.DataInputStream in) throws java.io.IOException {
            return new IndexRange(in.readUTF(), in.readLong(), in.readLong(), in.readLong());
        }
    }

    @Override
    public Boundedness boundedness() {
        return count < 0 ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED;
    }

    /**
     * One split per subtask. Bounded: contiguous ranges whose sizes differ by at most one. Unbounded:
     * interleaved indices (split i of p holds i, i + p, i + 2p, ...).
     */
    @Override
    public List<IndexRange> createSplits(int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1, was " + parallelism);
        }
        List<IndexRange> splits = new ArrayList<>(parallelism);
        for (int i = 0; i < parallelism; i++) {
            String id = "indices-" + i;
            if (count < 0) {
                splits.add(new IndexRange(id, i, Long.MAX_VALUE, parallelism));
            } else {
                long from = rangeStart(i, parallelism);
                splits.add(new IndexRange(id, from, rangeStart(i + 1, parallelism), 1));
            }
        }
        return splits;
    }

    private long rangeStart(int split, int parallelism) {
        long base = count / parallelism;
        long extra = count % parallelism;
        return split * base + Math.min(split, extra);
    }

    @Override
    public SourceReader<T, IndexRange> createReader(SourceReaderContext context) {
        RateLimit limit = Double.isInfinite(ratePerSecond)
                ? null
                : new RateLimit(context.clock(), ratePerSecond / context.parallelism(), originFor(context.parallelism()));
        return new GeneratorReader<>(function, timestamps, limit);
    }

    private synchronized RateLimit.Origin originFor(int parallelism) {
        if (origins == null) {
            origins = new RateLimit.Origins();
        }
        return origins.join(parallelism);
    }

    /** Options of a {@link GeneratorSource}; each setter checks its value and names it in its error. */
    public static final class Builder<T> {
        private final GeneratorFunction<T> function;
        private long count = -1;
        private double ratePerSecond = Double.POSITIVE_INFINITY;
        private IndexTimestamps timestamps;

        private Builder(GeneratorFunction<T> function) {
            this.function = Objects.requireNonNull(function, "function");
        }

        /** Generate indices {@code [0, count)}; the default is unbounded. */
        public Builder<T> count(long value) {
            if (value < 0) {
                throw new IllegalArgumentException("option 'count' must be between 0 and " + Long.MAX_VALUE + ", was " + value);
            }
            this.count = value;
            return this;
        }

        /** Generate without end (the default). */
        public Builder<T> unbounded() {
            this.count = -1;
            return this;
        }

        /** Total records per second over all subtasks; the default is unlimited. */
        public Builder<T> ratePerSecond(double value) {
            if (!(value > 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException(
                        "option 'ratePerSecond' must be positive and finite (or call unlimitedRate()), was " + value);
            }
            this.ratePerSecond = value;
            return this;
        }

        /** As fast as the pipeline takes them (the default). */
        public Builder<T> unlimitedRate() {
            this.ratePerSecond = Double.POSITIVE_INFINITY;
            return this;
        }

        /** Emit each record with this event time. */
        public Builder<T> timestamps(IndexTimestamps value) {
            this.timestamps = Objects.requireNonNull(value, "timestamps");
            return this;
        }

        public GeneratorSource<T> build() {
            return new GeneratorSource<>(this);
        }
    }
}
