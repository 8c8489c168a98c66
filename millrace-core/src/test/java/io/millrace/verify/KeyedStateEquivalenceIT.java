package io.millrace.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.CoProcessFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.state.ListState;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Keyed running state (value, map, list) and event-time timers through the local runtime, with union and
 * connect, under random disorder within the watermark bound, random parallelism, batch sizes and channel
 * capacities; the output must equal a plain recomputation of the same input.
 */
public class KeyedStateEquivalenceIT {
    private static final long SEED = 0x5EED_0003L;

    /** One output of the functions under test: what {@code kind} reported for {@code key} at {@code time}. */
    record KeyFact(int key, String kind, long time, long a, long b) implements java.io.Serializable {}

    /**
     * Per key: counts records into buckets of {@code period} ms of event time (map state), keeps the
     * timestamps not yet reported (list state), and a running count and sum (value state). At each bucket's
     * end (an event-time timer, one per key and bucket) it reports the bucket; at the end of input (a timer at
     * +∞) the totals. Every record also registers a decoy timer half a bucket later, which the bucket's
     * timer deletes: a decoy that fires shows up as output.
     */
    static final class BucketCounter extends KeyedProcessFunction<Integer, Event, KeyFact> {
        private final long period;
        private transient ValueState<long[]> totals;
        private transient MapState<Long, Integer> buckets;
        private transient ListState<Long> pending;

        BucketCounter(long period) {
            this.period = period;
        }

        @Override
        public void open(RuntimeContext context) {
            totals = context.state().getState(new ValueStateDescriptor<>("totals"));
            buckets = context.state().getMapState(new MapStateDescriptor<>("buckets"));
            pending = context.state().getListState(new ListStateDescriptor<>("pending"));
        }

        static long bucketEnd(long ts, long period) {
            return Math.floorDiv(ts + period - 1, period) * period;
        }

        @Override
        public void processElement(Event e, Context<Integer> ctx, Collector<KeyFact> out) {
            if (ctx.currentKey() != e.key() || ctx.timestamp() != e.ts()) {
                out.collect(new KeyFact(e.key(), "wrong-context", ctx.timestamp(), ctx.currentKey(), 0));
            }
            long[] t = totals.value();
            totals.update(t == null ? new long[] {1, e.value()} : new long[] {t[0] + 1, t[1] + e.value()});
            long end = bucketEnd(e.ts(), period);
            Integer n = buckets.get(end);
            buckets.put(end, n == null ? 1 : n + 1);
            pending.add(e.ts());
            ctx.timerService().registerEventTimeTimer(end);
            ctx.timerService().registerEventTimeTimer(end + period / 2);
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        }

        @Override
        public void onTimer(long time, OnTimerContext<Integer> ctx, Collector<KeyFact> out) {
            int key = ctx.currentKey();
            if (time == Long.MAX_VALUE) {
                long[] t = totals.value();
                out.collect(new KeyFact(key, "totals", time, t[0], t[1]));
                return;
            }
            Integer n = buckets.get(time);
            if (n == null) {
                out.collect(new KeyFact(key, "decoy-fired", time, 0, 0));
                return;
            }
            buckets.remove(time);
            ctx.timerService().deleteEventTimeTimer(time + period / 2);
            List<Long> later = new ArrayList<>();
            long reported = 0;
            for (long ts : pending.get()) {
                if (ts <= time) {
                    reported++;
                } else {
                    later.add(ts);
                }
            }
            pending.update(later);
            out.collect(new KeyFact(key, "bucket", time, n, reported));
        }
    }

    /**
     * The state backend of this test's pipelines: adds its settings to {@code config}. Nothing here (the heap
     * backend); millrace-rocksdb runs this test again on RocksDB by overriding it.
     */
    protected PipelineConfig onBackend(PipelineConfig config) {
        return config;
    }

    private static List<KeyFact> expectedBuckets(List<Event> events, long period) {
        List<KeyFact> expected = new ArrayList<>();
        Map<Integer, long[]> totals = new TreeMap<>();
        Map<Integer, Map<Long, Long>> buckets = new TreeMap<>();
        for (Event e : events) {
            totals.merge(e.key(), new long[] {1, e.value()}, (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
            buckets.computeIfAbsent(e.key(), k -> new TreeMap<>()).merge(BucketCounter.bucketEnd(e.ts(), period), 1L, Long::sum);
        }
        totals.forEach((k, t) -> expected.add(new KeyFact(k, "totals", Long.MAX_VALUE, t[0], t[1])));
        buckets.forEach((k, m) -> m.forEach((end, n) -> expected.add(new KeyFact(k, "bucket", end, n, n))));
        return expected;
    }

    @Test
    void keyedStateAndEventTimers_equalTheRecomputation() {
        for (int round = 0; round < 10; round++) {
            long seed = SEED + round;
            Random random = new Random(seed);
            DisorderedInput input = DisorderedInput.generate(random, 200 + random.nextInt(3_000), 1 + random.nextInt(60), 1 + random.nextInt(80), 0);
            long period = 2 * (1 + random.nextInt(50));
            RandomRuntime runtime = new RandomRuntime(random, this::onBackend);
            Pipeline p = runtime.pipeline();
            CollectSink<KeyFact> sink = new CollectSink<>();
            input.source(p, runtime.parallelism("source"), runtime.maxPoll())
                    .keyBy(Event::key)
                    .process(new BucketCounter(period))
                    .parallelism(runtime.parallelism("counter"))
                    .sinkTo(sink)
                    .parallelism(runtime.parallelism("sink"));
            p.execute("keyed state");
            String where = "seed " + seed + " (round " + round + "): period " + period + " records " + input.events.size() + " [" + runtime + "]";
            assertThat(sink.results()).as(where).containsExactlyInAnyOrderElementsOf(expectedBuckets(input.events, period));
        }
    }

    @Test
    void unionOfTwoSources_equalsTheRecomputationOverBoth() {
        for (int round = 0; round < 6; round++) {
            long seed = SEED + 100 + round;
            Random random = new Random(seed);
            DisorderedInput input = DisorderedInput.generate(random, 200 + random.nextInt(2_000), 1 + random.nextInt(30), 1 + random.nextInt(80), 0);
            long period = 2 * (1 + random.nextInt(50));
            List<Event> left = new ArrayList<>();
            List<Event> right = new ArrayList<>();
            for (Event e : input.events) {
                (random.nextBoolean() ? left : right).add(e);
            }
            RandomRuntime runtime = new RandomRuntime(random, this::onBackend);
            Pipeline p = runtime.pipeline();
            WatermarkStrategy<Event> wm = WatermarkStrategy.boundedOutOfOrderness(Duration.ofMillis(input.bound));
            DataStream<Event> a = p.fromSource(new ListSource<>(left, Event::ts, 1 + random.nextInt(40)), wm, "left").parallelism(runtime.parallelism("left"));
            DataStream<Event> b = p.fromSource(new ListSource<>(right, Event::ts, 1 + random.nextInt(40)), wm, "right").parallelism(runtime.parallelism("right"));
            CollectSink<KeyFact> sink = new CollectSink<>();
            a.union(b.map(e -> e).parallelism(runtime.parallelism("map")))
                    .keyBy(Event::key)
                    .process(new BucketCounter(period))
                    .parallelism(runtime.parallelism("counter"))
                    .sinkTo(sink);
            p.execute("union");
            String where = "seed " + seed + " (round " + round + "): period " + period + " [" + runtime + "]";
            assertThat(sink.results()).as(where).containsExactlyInAnyOrderElementsOf(expectedBuckets(input.events, period));
        }
    }

    /** Counts and sums per key over both inputs in shared keyed state; reports once at the end of input. */
    static final class SharedTotals extends CoProcessFunction<Event, Event, KeyFact> {
        private transient ValueState<long[]> totals;

        @Override
        public void open(RuntimeContext context) {
            totals = context.state().getState(new ValueStateDescriptor<>("totals"));
        }

        private void add(Event e, int input, Context ctx) {
            long[] t = totals.value();
            long[] next = t == null ? new long[4] : t.clone();
            next[input] += 1;
            next[input + 2] += e.value();
            totals.update(next);
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        }

        @Override
        public void processElement1(Event e, Context ctx, Collector<KeyFact> out) {
            add(e, 0, ctx);
        }

        @Override
        public void processElement2(Event e, Context ctx, Collector<KeyFact> out) {
            add(e, 1, ctx);
        }

        @Override
        public void onTimer(long time, Context ctx, Collector<KeyFact> out) {
            long[] t = totals.value();
            int key = (Integer) ctx.currentKey();
            out.collect(new KeyFact(key, "first", time, t[0], t[2]));
            out.collect(new KeyFact(key, "second", time, t[1], t[3]));
        }
    }

    @Test
    void keyedConnect_sharesStateOfAKeyAcrossBothInputs() {
        for (int round = 0; round < 6; round++) {
            long seed = SEED + 200 + round;
            Random random = new Random(seed);
            DisorderedInput first = DisorderedInput.generate(random, 100 + random.nextInt(2_000), 1 + random.nextInt(30), 1 + random.nextInt(80), 0.05);
            DisorderedInput second = DisorderedInput.generate(random, 100 + random.nextInt(2_000), 1 + random.nextInt(30), 1 + random.nextInt(80), 0.05);
            RandomRuntime runtime = new RandomRuntime(random, this::onBackend);
            Pipeline p = runtime.pipeline();
            CollectSink<KeyFact> sink = new CollectSink<>();
            first.source(p, runtime.parallelism("first"), runtime.maxPoll())
                    .connect(second.source(p, runtime.parallelism("second"), runtime.maxPoll()))
                    .keyBy(Event::key, Event::key)
                    .process(new SharedTotals())
                    .parallelism(runtime.parallelism("co-process"))
                    .sinkTo(sink);
            p.execute("connect");

            Map<Integer, long[]> totals = new TreeMap<>();
            for (Event e : first.events) {
                totals.computeIfAbsent(e.key(), k -> new long[4])[0]++;
                totals.get(e.key())[2] += e.value();
            }
            for (Event e : second.events) {
                totals.computeIfAbsent(e.key(), k -> new long[4])[1]++;
                totals.get(e.key())[3] += e.value();
            }
            List<KeyFact> expected = new ArrayList<>();
            totals.forEach((k, t) -> {
                expected.add(new KeyFact(k, "first", Long.MAX_VALUE, t[0], t[2]));
                expected.add(new KeyFact(k, "second", Long.MAX_VALUE, t[1], t[3]));
            });
            String where = "seed " + seed + " (round " + round + ") [" + runtime + "]";
            assertThat(sink.results()).as(where).containsExactlyInAnyOrderElementsOf(expected);
        }
    }
}
