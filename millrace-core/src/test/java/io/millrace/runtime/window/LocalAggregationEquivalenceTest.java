package io.millrace.runtime.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.WindowedStream;
import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.PackedAccumulator;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.metrics.OperatorMetrics;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.TimeWindows;
import io.millrace.api.window.Windows;
import io.millrace.connector.generator.GeneratorSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Windows with local aggregation give the results they give without it: tumbling and sliding, a reduce that
 * is associative but not commutative (so the order in which records and partials are folded shows) and an
 * aggregate function with a mutable accumulator under a process window function, out-of-order input within
 * the watermark bound, one or two source subtasks, two window subtasks; with the default bound on held
 * partials and with a bound of 3, which sends several partials per key and slice. Each key is read by one source
 * subtask, so its records reach the window in one order in every run. The backend is the heap here;
 * millrace-rocksdb runs this test again on RocksDB through {@link #onBackend}.
 */
public class LocalAggregationEquivalenceTest {
    static final int EVENTS = 4_000;
    static final long BOUND = 40;
    static final String[] KEYS = new String[EVENTS];
    static final long[] TIMESTAMPS = new long[EVENTS];

    static {
        Random random = new Random(0x10CA1);
        for (int i = 0; i < EVENTS; i++) {
            // a bounded generator gives each of two readers one contiguous half of the indices
            KEYS[i] = "h" + (i * 2 / EVENTS) + "-" + random.nextInt(6);
            TIMESTAMPS[i] = i * 2L + random.nextInt((int) BOUND / 2);
        }
    }

    /** A record: its key, a number, and the indices it holds in the order they were folded. */
    public record Reading(String key, long value, String trail) implements java.io.Serializable {
        static Reading of(long i) {
            return new Reading(KEYS[(int) i], i % 97, String.valueOf(i));
        }

        /** Associative, not commutative. */
        static Reading followedBy(Reading a, Reading b) {
            return new Reading(a.key(), a.value() + b.value(), a.trail() + "," + b.trail());
        }
    }

    /** Sum, count and largest value; {@code merge} reuses its first argument. */
    static final class SumCountMax implements AggregateFunction<Reading, long[], String> {
        @Override
        public long[] createAccumulator() {
            return new long[] {0, 0, Long.MIN_VALUE};
        }

        @Override
        public long[] add(Reading r, long[] acc) {
            acc[0] += r.value();
            acc[1]++;
            acc[2] = Math.max(acc[2], r.value());
            return acc;
        }

        @Override
        public String getResult(long[] acc) {
            return acc[0] + "/" + acc[1] + "/" + acc[2];
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            a[0] += b[0];
            a[1] += b[1];
            a[2] = Math.max(a[2], b[2]);
            return a;
        }
    }

    /** Sum, count and largest value as fields, which windows on the heap keep packed as three longs. */
    static final class Packed implements PackedAccumulator, java.io.Serializable {
        long sum;
        long count;
        long max = Long.MIN_VALUE;

        @Override
        public int packedLongs() {
            return 3;
        }

        @Override
        public void packInto(long[] slots, int offset) {
            slots[offset] = sum;
            slots[offset + 1] = count;
            slots[offset + 2] = max;
        }

        @Override
        public void unpackFrom(long[] slots, int offset) {
            sum = slots[offset];
            count = slots[offset + 1];
            max = slots[offset + 2];
        }
    }

    /** {@link SumCountMax} over a {@link Packed} accumulator. */
    static final class PackedSumCountMax implements AggregateFunction<Reading, Packed, String> {
        @Override
        public Packed createAccumulator() {
            return new Packed();
        }

        @Override
        public Packed add(Reading r, Packed acc) {
            acc.sum += r.value();
            acc.count++;
            acc.max = Math.max(acc.max, r.value());
            return acc;
        }

        @Override
        public String getResult(Packed acc) {
            return acc.sum + "/" + acc.count + "/" + acc.max;
        }

        @Override
        public Packed merge(Packed a, Packed b) {
            a.sum += b.sum;
            a.count += b.count;
            a.max = Math.max(a.max, b.max);
            return a;
        }
    }

    /** "key@[start,end)=result". */
    static final class Label extends ProcessWindowFunction<String, String, String, TimeWindow> {
        @Override
        public void process(String key, Context<TimeWindow> ctx, Iterable<String> results, Collector<String> out) {
            out.collect(key + "@[" + ctx.window().start() + "," + ctx.window().end() + ")=" + results.iterator().next());
        }
    }

    /** The state backend of this test's pipelines: adds its settings to {@code config}. Nothing here (the heap). */
    protected PipelineConfig onBackend(PipelineConfig config) {
        return config;
    }

    /** What a run emitted, sorted, and how many elements reached the window operator. */
    record Outcome(List<String> results, long windowInput) {}

    Outcome run(TimeWindows windows, boolean reduce, int sourceParallelism, boolean local, int maxKeys) {
        return run(windows, reduce, sourceParallelism, local, maxKeys, 0);
    }

    /** {@code ratePerSecond}: the sources' pace, 0 for as fast as they go. */
    Outcome run(TimeWindows windows, boolean reduce, int sourceParallelism, boolean local, int maxKeys, double ratePerSecond) {
        return run(windows, reduce ? null : new SumCountMax(), sourceParallelism, local, maxKeys, ratePerSecond);
    }

    /** {@code aggregate}: folds each window under {@link Label}; null for the reduce {@link Reading#followedBy}. */
    Outcome run(TimeWindows windows, AggregateFunction<Reading, ?, String> aggregate, int sourceParallelism, boolean local,
            int maxKeys, double ratePerSecond) {
        boolean reduce = aggregate == null;
        PipelineConfig config = onBackend(new PipelineConfig().parallelism(2).localWindowAggregation(local).localWindowAggregationMaxKeys(maxKeys));
        Pipeline p = Pipeline.create(config);
        GeneratorSource.Builder<Reading> source = GeneratorSource.builder(Reading::of).count(EVENTS).timestamps(i -> TIMESTAMPS[(int) i]);
        if (ratePerSecond > 0) {
            source.ratePerSecond(ratePerSecond);
        }
        DataStream<Reading> readings = p.fromSource(source.build(),
                WatermarkStrategy.<Reading>boundedOutOfOrderness(Duration.ofMillis(BOUND)), "readings").parallelism(sourceParallelism);
        WindowedStream<Reading, String, TimeWindow> windowed = readings.keyBy(Reading::key).window(windows);
        CollectSink<String> sink = new CollectSink<>();
        if (reduce) {
            windowed.reduce(Reading::followedBy).name("windows").map(r -> r.key() + "=" + r.trail() + "/" + r.value()).sinkTo(sink);
        } else {
            windowed.aggregate(aggregate, new Label()).name("windows").sinkTo(sink);
        }
        JobResult result = p.execute("local aggregation " + local);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < sink.size(); i++) {
            lines.add(sink.timestamps().get(i) + " " + sink.results().get(i));
        }
        lines.sort(null);
        assertThat(result.metrics().sum("windows", OperatorMetrics::lateRecordsDropped)).as("late records").isZero();
        return new Outcome(lines, result.metrics().sum("windows", OperatorMetrics::recordsIn));
    }

    private void assertSameResults(TimeWindows windows, boolean reduce) {
        for (int sources = 1; sources <= 2; sources++) {
            String what = windows + (reduce ? " reduce" : " aggregate") + ", " + sources + " source subtask(s)";
            Outcome off = run(windows, reduce, sources, false, 16_384);
            Outcome on = run(windows, reduce, sources, true, 16_384);
            Outcome small = run(windows, reduce, sources, true, 3); // several partials per key and slice
            assertThat(off.results()).as(what).isNotEmpty();
            assertThat(on.results()).as(what).isEqualTo(off.results());
            assertThat(small.results()).as(what + ", at most 3 partials held").isEqualTo(off.results());
            assertThat(off.windowInput()).as(what + ": records into the window without local aggregation").isEqualTo(EVENTS);
            assertThat(on.windowInput()).as(what + ": partials into the window").isLessThan(EVENTS / 2);
        }
    }

    @Test
    void tumblingReduce_withLocalAggregation_givesTheResultsOfRecordByRecord() {
        assertSameResults(Windows.tumbling(Duration.ofMillis(50)), true);
    }

    @Test
    void tumblingAggregateUnderAProcessWindowFunction_withLocalAggregation_givesTheResultsOfRecordByRecord() {
        assertSameResults(Windows.tumbling(Duration.ofMillis(50)), false);
    }

    @Test
    void slidingReduce_withLocalAggregation_givesTheResultsOfRecordByRecord() {
        assertSameResults(Windows.sliding(Duration.ofMillis(90), Duration.ofMillis(30)), true);
    }

    @Test
    void slidingAggregateUnderAProcessWindowFunction_withLocalAggregation_givesTheResultsOfRecordByRecord() {
        assertSameResults(Windows.sliding(Duration.ofMillis(90), Duration.ofMillis(30)), false);
    }

    /** Accumulators kept packed give the results of object accumulators, with and without local aggregation. */
    @Test
    void packedAccumulators_slidingAndTumbling_giveTheResultsOfObjectAccumulators() {
        for (TimeWindows windows : new TimeWindows[] {Windows.sliding(Duration.ofMillis(90), Duration.ofMillis(30)),
            Windows.tumbling(Duration.ofMillis(50))}) {
            Outcome objects = run(windows, new SumCountMax(), 2, false, 16_384, 0);
            assertThat(objects.results()).isNotEmpty();
            assertThat(run(windows, new PackedSumCountMax(), 2, false, 16_384, 0).results()).as("%s", windows)
                    .isEqualTo(objects.results());
            assertThat(run(windows, new PackedSumCountMax(), 2, true, 3, 0).results()).as("%s, partials", windows)
                    .isEqualTo(objects.results());
        }
    }

    /** Sum and largest value (or the count alone, {@code width} 1), packed as two longs or one: partials carry them. */
    static final class Narrow implements PackedAccumulator, java.io.Serializable {
        final int width;
        long first;
        long second = Long.MIN_VALUE;

        Narrow(int width) {
            this.width = width;
        }

        @Override
        public int packedLongs() {
            return width;
        }

        @Override
        public void packInto(long[] slots, int offset) {
            slots[offset] = first;
            if (width == 2) {
                slots[offset + 1] = second;
            }
        }

        @Override
        public void unpackFrom(long[] slots, int offset) {
            first = slots[offset];
            if (width == 2) {
                second = slots[offset + 1];
            }
        }
    }

    /** Sum and largest value over a {@link Narrow} accumulator of two longs, or the count over one of one long. */
    static final class NarrowAggregate implements AggregateFunction<Reading, Narrow, String> {
        private final int width;

        NarrowAggregate(int width) {
            this.width = width;
        }

        @Override
        public Narrow createAccumulator() {
            return new Narrow(width);
        }

        @Override
        public Narrow add(Reading r, Narrow acc) {
            if (width == 2) {
                acc.first += r.value();
                acc.second = Math.max(acc.second, r.value());
            } else {
                acc.first++;
            }
            return acc;
        }

        @Override
        public String getResult(Narrow acc) {
            return width == 2 ? acc.first + "/" + acc.second : Long.toString(acc.first);
        }

        @Override
        public Narrow merge(Narrow a, Narrow b) {
            a.first += b.first;
            a.second = Math.max(a.second, b.second);
            return a;
        }
    }

    /**
     * Accumulators of one or two longs travel packed in the partials (see {@code PartialAggregate}): the window's
     * first partial of a key is copied from its numbers, later ones merged from them; the results are those of
     * the records sent one by one.
     */
    @Test
    void partialsCarryingTheirPackedNumbers_giveTheResultsOfRecordByRecord() {
        for (int width = 1; width <= 2; width++) {
            for (TimeWindows windows : new TimeWindows[] {Windows.sliding(Duration.ofMillis(90), Duration.ofMillis(30)),
                Windows.tumbling(Duration.ofMillis(50))}) {
                String what = windows + ", " + width + " long(s)";
                Outcome records = run(windows, new NarrowAggregate(width), 2, false, 16_384, 0);
                assertThat(records.results()).as(what).isNotEmpty();
                assertThat(run(windows, new NarrowAggregate(width), 2, true, 16_384, 0).results()).as(what).isEqualTo(records.results());
                assertThat(run(windows, new NarrowAggregate(width), 2, true, 3, 0).results()).as(what + ", at most 3 partials held")
                        .isEqualTo(records.results());
            }
        }
    }

    @Test
    void aSmallBoundOnHeldPartials_sendsMorePartialsAndTheSameResults() {
        TimeWindows windows = Windows.sliding(Duration.ofMillis(90), Duration.ofMillis(30));
        Outcome off = run(windows, true, 2, false, 16_384);
        Outcome bounded = run(windows, true, 2, true, 2);
        Outcome unbounded = run(windows, true, 2, true, 16_384);
        assertThat(bounded.results()).isEqualTo(off.results());
        assertThat(bounded.windowInput()).as("partials with at most 2 held").isGreaterThan(unbounded.windowInput()).isLessThan(EVENTS);
    }

    @Test
    void sourcesThatRunDry_sendTheirPartialsEachTimeAndTheSameResults() {
        TimeWindows windows = Windows.tumbling(Duration.ofMillis(50));
        Outcome off = run(windows, true, 2, false, 16_384);
        Outcome unpaced = run(windows, true, 2, true, 16_384);
        Outcome paced = run(windows, true, 2, true, 16_384, 8_000); // half a second: the sources wait between polls
        assertThat(paced.results()).isEqualTo(off.results());
        assertThat(paced.windowInput()).as("partials sent whenever a source waits for its pace")
                .isGreaterThan(unpaced.windowInput()).isLessThanOrEqualTo(EVENTS);
    }
}
