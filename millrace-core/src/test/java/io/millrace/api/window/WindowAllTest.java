package io.millrace.api.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.DataStream;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessAllWindowFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.runtime.plan.PhysicalPlan;
import io.millrace.testing.FeedSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Windows over a whole, non-keyed stream ({@code DataStream.windowAll}), run as pipelines of two subtasks. */
class WindowAllTest {

    record Reading(String machine, long value, long time) {}

    /** Readings of 20 machines in time order, 0–3 ms apart, seeded. */
    private static List<Reading> readings(long seed, int n) {
        Random random = new Random(seed);
        List<Reading> list = new ArrayList<>();
        long time = 0;
        for (int i = 0; i < n; i++) {
            time += random.nextInt(4);
            list.add(new Reading("m" + random.nextInt(20), random.nextInt(1_000_000), time));
        }
        return list;
    }

    private static DataStream<Reading> stream(Pipeline pipeline, List<Reading> readings) {
        return pipeline.fromElements(readings.toArray(Reading[]::new))
                .assignTimestampsAndWatermarks(WatermarkStrategy.<Reading>boundedOutOfOrderness(Duration.ofMillis(5))
                        .withTimestampAssigner((r, ts) -> r.time()));
    }

    private static Reading highest(Reading a, Reading b) {
        if (a.value() != b.value()) {
            return a.value() > b.value() ? a : b;
        }
        return a.time() <= b.time() ? a : b;
    }

    /** Per window start, what {@code fold} makes of the window's readings, computed without the engine. */
    private static <R> Map<Long, R> expected(List<Reading> readings, long size, long slide, Function<List<Reading>, R> fold) {
        Map<Long, List<Reading>> windows = new TreeMap<>();
        for (Reading r : readings) {
            long last = r.time() - Math.floorMod(r.time(), slide);
            for (long start = last; start > r.time() - size; start -= slide) {
                windows.computeIfAbsent(start, s -> new ArrayList<>()).add(r);
            }
        }
        Map<Long, R> out = new TreeMap<>();
        windows.forEach((start, list) -> out.put(start, fold.apply(list)));
        return out;
    }

    @Test
    void tumblingReduce_givesTheHighestOfEachWindow_inOneSubtaskBehindALocalAggregatorPerProducer() {
        List<Reading> readings = readings(7, 20_000);
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Reading> out = new CollectSink<>();
        stream(pipeline, readings).windowAll(Windows.tumbling(Duration.ofMillis(100))).reduce(WindowAllTest::highest).name("highest")
                .sinkTo(out);

        String plan = PhysicalPlan.of(pipeline.plan()).describe();
        assertThat(plan).contains("x2: timestamps -> highest (local)\n  HASH -> task 2").contains("task 2 x1: highest");
        pipeline.execute("highest reading per window");

        Map<Long, Reading> want = expected(readings, 100, 100, l -> l.stream().reduce(WindowAllTest::highest).orElseThrow());
        Map<Long, Reading> got = new TreeMap<>();
        for (int i = 0; i < out.size(); i++) {
            long start = out.timestamps().get(i) + 1 - 100;
            assertThat(got.put(start, out.results().get(i))).as("one result for the window at %d", start).isNull();
        }
        assertThat(want).hasSizeGreaterThan(250);
        assertThat(got).isEqualTo(want);
    }

    @Test
    void slidingAggregate_withAProcessAllWindowFunction_sameWithAndWithoutLocalAggregation() {
        List<Reading> readings = readings(11, 10_000);
        Map<Long, String> want = expected(readings, 300, 100, l -> l.size() + " readings, sum " + l.stream().mapToLong(Reading::value).sum());
        for (boolean local : new boolean[] {true, false}) {
            Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2).localWindowAggregation(local));
            CollectSink<String> out = new CollectSink<>();
            stream(pipeline, readings).windowAll(Windows.sliding(Duration.ofMillis(300), Duration.ofMillis(100)))
                    .aggregate(new CountAndSum(), new Labelled()).name("counts").sinkTo(out);
            assertThat(PhysicalPlan.of(pipeline.plan()).describe()).as("local aggregation %s", local)
                    .matches(p -> p.contains("(local)") == local).contains("x1: counts");
            pipeline.execute("counts per sliding window, local aggregation " + local);
            Map<Long, String> got = out.results().stream()
                    .collect(Collectors.toMap(s -> Long.parseLong(s.split(" ")[0]), s -> s.substring(s.indexOf(' ') + 1), (a, b) -> a + " AND " + b, TreeMap::new));
            assertThat(got).as("local aggregation %s", local).isEqualTo(want);
        }
    }

    @Test
    void process_seesEveryRecordOfItsWindow_andTheFunctionIsOpenedFirst() {
        List<Reading> readings = readings(3, 3_000);
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> out = new CollectSink<>();
        stream(pipeline, readings).windowAll(Windows.tumbling(Duration.ofMillis(250))).process(new Machines()).sinkTo(out);
        pipeline.execute("machines per window");

        Map<Long, String> want = expected(readings, 250, 250,
                l -> "opened " + l.stream().map(Reading::machine).distinct().sorted().collect(Collectors.joining(",")));
        Map<Long, String> got = out.results().stream()
                .collect(Collectors.toMap(s -> Long.parseLong(s.split(" ")[0]), s -> s.substring(s.indexOf(' ') + 1), (a, b) -> a + " AND " + b, TreeMap::new));
        assertThat(got).hasSizeGreaterThan(10).isEqualTo(want);
    }

    @Test
    void countWindowAll_countsRecordsOfEveryProducerTogether() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Long> out = new CollectSink<>();
        pipeline.fromElements(1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L).map(v -> v).countWindowAll(4).reduce(Long::sum).sinkTo(out);
        assertThat(PhysicalPlan.of(pipeline.plan()).describe()).contains("x2: map").contains("x1: window");
        pipeline.execute("count windows over the whole stream");
        assertThat(out.results()).containsExactly(4L, 4L, 4L);
    }

    @Test
    void lateRecords_goToTheSideOutput_andAllowedLatenessFiresAgain() {
        // watermark interval 0 and one record per poll: a watermark after each record, so which one is late is exact
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2).watermarkInterval(Duration.ZERO));
        FeedSource<Reading> feed = new FeedSource<>();
        CollectSink<Reading> out = new CollectSink<>();
        CollectSink<Reading> lateOut = new CollectSink<>();
        OutputTag<Reading> late = new OutputTag<>("late");
        DataStream<Reading> highest = pipeline.fromSource(feed, WatermarkStrategy.<Reading>monotonous().withTimestampAssigner((r, ts) -> r.time()), "readings")
                .parallelism(1)
                .windowAll(Windows.tumbling(Duration.ofMillis(100))).allowedLateness(Duration.ofMillis(100)).sideOutputLateData(late)
                .reduce(WindowAllTest::highest);
        highest.sinkTo(out);
        highest.getSideOutput(late).sinkTo(lateOut);
        feed.add(new Reading("a", 5, 10))
                .add(new Reading("b", 7, 120))   // window [0, 100) fires: a
                .add(new Reading("c", 9, 20))    // late, within the allowed lateness: [0, 100) fires again with c
                .add(new Reading("d", 1, 230))   // the watermark passes 99 + 100
                .add(new Reading("e", 11, 30))   // too late: side output
                .end();
        pipeline.execute("late readings");
        assertThat(out.results()).containsExactly(new Reading("a", 5, 10), new Reading("c", 9, 20), new Reading("b", 7, 120),
                new Reading("d", 1, 230));
        assertThat(lateOut.results()).containsExactly(new Reading("e", 11, 30));
    }

    @Test
    void aWindowOverTheWholeStream_refusesAnotherParallelism() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        DataStream<Reading> highest = stream(pipeline, readings(1, 10)).windowAll(Windows.tumbling(Duration.ofMillis(100)))
                .reduce(WindowAllTest::highest);
        assertThat(highest.parallelism(1)).isSameAs(highest);
        assertThatThrownBy(() -> highest.parallelism(4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("windowAll").hasMessageContaining("cannot be 4").hasMessageContaining("keyBy");
    }

    /** The number of readings and the sum of their values, as "n readings, sum s". */
    static final class CountAndSum implements AggregateFunction<Reading, long[], String> {
        @Override
        public long[] createAccumulator() {
            return new long[2];
        }

        @Override
        public long[] add(Reading value, long[] acc) {
            acc[0]++;
            acc[1] += value.value();
            return acc;
        }

        @Override
        public String getResult(long[] acc) {
            return acc[0] + " readings, sum " + acc[1];
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            a[0] += b[0];
            a[1] += b[1];
            return a;
        }
    }

    /** "start n readings, sum s" per window. */
    static final class Labelled extends ProcessAllWindowFunction<String, String, TimeWindow> {
        @Override
        public void process(Context<TimeWindow> ctx, Iterable<String> totals, Collector<String> out) {
            out.collect(ctx.window().start() + " " + totals.iterator().next());
        }
    }

    /** "start opened m1,m2,..." per window: the machines seen, sorted; "opened" only if open was called. */
    static final class Machines extends ProcessAllWindowFunction<Reading, String, TimeWindow> {
        private transient String opened;

        @Override
        public void open(RuntimeContext context) {
            opened = "opened";
        }

        @Override
        public void process(Context<TimeWindow> ctx, Iterable<Reading> elements, Collector<String> out) {
            List<String> machines = new ArrayList<>();
            for (Reading r : elements) {
                if (!machines.contains(r.machine())) {
                    machines.add(r.machine());
                }
            }
            machines.sort(null);
            out.collect(ctx.window().start() + " " + opened + " " + String.join(",", machines));
        }
    }
}
