package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.JobHandle;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.PackedAccumulator;
import io.millrace.api.functions.ProcessAllWindowFunction;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.ManualClock;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.GlobalWindow;
import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.Trigger;
import io.millrace.api.window.TriggerResult;
import io.millrace.api.window.Triggers;
import io.millrace.api.window.Window;
import io.millrace.api.window.Windows;
import io.millrace.runtime.plan.PhysicalPlan;
import io.millrace.testing.Await;
import io.millrace.testing.FeedSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of docs/windows.md; each runs here. */
class WindowsExamplesTest {

    record Reading(String machine, String sensor, double value, long time) {}

    private static final long MINUTE = 60_000;

    /** Counts records; used by the event-time examples too. */
    static final class CountReadings<T> implements AggregateFunction<T, long[], Long> {
        @Override
        public long[] createAccumulator() {
            return new long[1];
        }

        @Override
        public long[] add(T value, long[] acc) {
            acc[0]++;
            return acc;
        }

        @Override
        public Long getResult(long[] acc) {
            return acc[0];
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            a[0] += b[0];
            return a;
        }
    }

    private static DataStream<Reading> readings(Pipeline pipeline, Reading... readings) {
        return pipeline.fromElements(readings)
                .assignTimestampsAndWatermarks(WatermarkStrategy.<Reading>boundedOutOfOrderness(Duration.ofSeconds(10))
                        .withTimestampAssigner((r, ts) -> r.time()));
    }

    @Test
    void tumbling_maxTemperaturePerMachineAndMinute() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Reading> out = new CollectSink<>();
        DataStream<Reading> temperatures = readings(pipeline,
                new Reading("press-1", "temperature", 71, 5_000),
                new Reading("press-1", "temperature", 74, 50_000),
                new Reading("press-1", "temperature", 73, 65_000),
                new Reading("press-2", "temperature", 90, 10_000));
        // tag::tumbling[]
        temperatures
                .keyBy(Reading::machine)
                .window(Windows.tumbling(Duration.ofMinutes(1)))
                .reduce((a, b) -> a.value() >= b.value() ? a : b)
                .sinkTo(out);
        // end::tumbling[]
        pipeline.execute("max per minute");
        assertThat(out.results()).extracting(Reading::value).containsExactlyInAnyOrder(74.0, 73.0, 90.0);
        assertThat(out.timestamps()).containsExactlyInAnyOrder(MINUTE - 1, 2 * MINUTE - 1, MINUTE - 1);
    }

    @Test
    void windowAll_theHottestReadingOfAllMachinesPerMinute() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> out = new CollectSink<>();
        DataStream<Reading> temperatures = readings(pipeline,
                new Reading("press-1", "temperature", 71, 5_000),
                new Reading("press-2", "temperature", 90, 10_000),
                new Reading("press-1", "temperature", 74, 50_000),
                new Reading("press-1", "temperature", 73, 65_000),
                new Reading("press-3", "temperature", 72, 70_000));
        // tag::window-all[]
        temperatures
                .windowAll(Windows.tumbling(Duration.ofMinutes(1)))   // no keyBy: one window for all machines
                .reduce((a, b) -> a.value() >= b.value() ? a : b, new Hottest())
                .sinkTo(out);
        // end::window-all[]
        assertThat(PhysicalPlan.of(pipeline.plan()).describe()).contains("(local)").contains("x1: window");
        pipeline.execute("hottest per minute");
        assertThat(out.results()).containsExactlyInAnyOrder("minute 0: press-2 at 90.0", "minute 1: press-1 at 73.0");
    }

    // tag::window-all-function[]
    /** Labels the hottest reading of a minute with the minute; no key, since the window holds every machine. */
    static final class Hottest extends ProcessAllWindowFunction<Reading, String, TimeWindow> {
        @Override
        public void process(Context<TimeWindow> ctx, Iterable<Reading> hottest, Collector<String> out) {
            Reading r = hottest.iterator().next();
            out.collect("minute " + ctx.window().start() / MINUTE + ": " + r.machine() + " at " + r.value());
        }
    }
    // end::window-all-function[]

    // tag::average[]
    /** Average of the readings' values; the accumulator is {sum, count}. */
    static final class Average implements AggregateFunction<Reading, double[], Double> {
        @Override
        public double[] createAccumulator() {
            return new double[2];
        }

        @Override
        public double[] add(Reading r, double[] acc) {
            acc[0] += r.value();
            acc[1]++;
            return acc;
        }

        @Override
        public Double getResult(double[] acc) {
            return acc[0] / acc[1];
        }

        @Override
        public double[] merge(double[] a, double[] b) {
            a[0] += b[0];
            a[1] += b[1];
            return a;
        }
    }

    /** Labels each average with its machine and window. */
    static final class Label extends ProcessWindowFunction<Double, String, String, TimeWindow> {
        @Override
        public void process(String machine, Context<TimeWindow> ctx, Iterable<Double> averages, Collector<String> out) {
            double avg = averages.iterator().next();
            out.collect(machine + " " + ctx.window().start() / 1000 + "-" + ctx.window().end() / 1000 + " s: " + avg);
        }
    }
    // end::average[]

    @Test
    void localAggregation_isOnByDefault_andOneOptionTurnsItOff_withTheSameResults() {
        List<Reading> list = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            list.add(new Reading("mill-" + i % 3, "vibration", i, i * 3_000L));
        }
        List<List<String>> results = new ArrayList<>();
        for (boolean local : new boolean[] {true, false}) {
            // tag::local-aggregation-off[]
            PipelineConfig config = new PipelineConfig()
                    .parallelism(2)
                    .localWindowAggregation(false);   // default true; or the option window.local-aggregation: false
            // end::local-aggregation-off[]
            config.localWindowAggregation(local);
            Pipeline pipeline = Pipeline.create(config);
            CollectSink<String> out = new CollectSink<>();
            readings(pipeline, list.toArray(Reading[]::new))
                    .keyBy(Reading::machine)
                    .window(Windows.sliding(Duration.ofMinutes(5), Duration.ofSeconds(30)))
                    .aggregate(new Average(), new Label())
                    .sinkTo(out);
            assertThat(PhysicalPlan.of(pipeline.plan()).describe()).as("local aggregation %s", local)
                    .matches(plan -> plan.contains("(local)") == local);
            pipeline.execute("sliding averages, local aggregation " + local);
            results.add(out.results().stream().sorted().toList());
        }
        assertThat(results.get(0)).hasSizeGreaterThan(50).isEqualTo(results.get(1));
    }

    // tag::packed-average[]
    /** A sum and a count, kept by windows as two longs per key and slice instead of as an object. */
    static final class SumCount implements PackedAccumulator, java.io.Serializable {
        double sum;
        long count;

        @Override
        public int packedLongs() {
            return 2;
        }

        @Override
        public void packInto(long[] slots, int offset) {
            slots[offset] = Double.doubleToRawLongBits(sum);
            slots[offset + 1] = count;
        }

        @Override
        public void unpackFrom(long[] slots, int offset) {
            sum = Double.longBitsToDouble(slots[offset]);
            count = slots[offset + 1];
        }
    }

    /** {@link Average} over a packed accumulator. */
    static final class PackedAverage implements AggregateFunction<Reading, SumCount, Double> {
        @Override
        public SumCount createAccumulator() {
            return new SumCount();
        }

        @Override
        public SumCount add(Reading r, SumCount acc) {
            acc.sum += r.value();
            acc.count++;
            return acc;
        }

        @Override
        public Double getResult(SumCount acc) {
            return acc.sum / acc.count;
        }

        @Override
        public SumCount merge(SumCount a, SumCount b) {
            a.sum += b.sum;
            a.count += b.count;
            return a;
        }
    }
    // end::packed-average[]

    @Test
    void packedAccumulators_giveTheResultsOfObjectOnes() {
        List<Reading> list = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            list.add(new Reading("mill-" + i % 4, "vibration", i % 17, i * 7_000L));
        }
        List<List<String>> results = new ArrayList<>();
        for (boolean packed : new boolean[] {true, false}) {
            Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
            CollectSink<String> out = new CollectSink<>();
            var windowed = readings(pipeline, list.toArray(Reading[]::new))
                    .keyBy(Reading::machine)
                    .window(Windows.sliding(Duration.ofMinutes(5), Duration.ofSeconds(30)));
            (packed ? windowed.aggregate(new PackedAverage(), new Label()) : windowed.aggregate(new Average(), new Label()))
                    .sinkTo(out);
            pipeline.execute("sliding averages, packed " + packed);
            results.add(out.results().stream().sorted().toList());
        }
        assertThat(results.get(0)).hasSizeGreaterThan(100).isEqualTo(results.get(1));
    }

    @Test
    void sliding_averageVibrationOverFiveMinutesEveryThirtySeconds() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> out = new CollectSink<>();
        List<Reading> list = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            list.add(new Reading("mill-7", "vibration", i, i * 30_000L)); // one reading every 30 s, value = index
        }
        DataStream<Reading> vibration = readings(pipeline, list.toArray(Reading[]::new));
        // tag::sliding[]
        vibration
                .keyBy(Reading::machine)
                .window(Windows.sliding(Duration.ofMinutes(5), Duration.ofSeconds(30)))
                .aggregate(new Average(), new Label())
                .sinkTo(out);
        // end::sliding[]
        pipeline.execute("sliding averages");
        assertThat(out.results()).hasSize(29).contains("mill-7 0-300 s: 4.5", "mill-7 300-600 s: 14.5", "mill-7 -270-30 s: 0.0");
    }

    // tag::session-function[]
    /** One line per run cycle of a machine: when it started, how long it ran, how many readings. */
    static final class RunCycle extends ProcessWindowFunction<Reading, String, String, TimeWindow> {
        @Override
        public void process(String machine, Context<TimeWindow> ctx, Iterable<Reading> readings, Collector<String> out) {
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            int n = 0;
            for (Reading r : readings) {
                first = Math.min(first, r.time());
                last = Math.max(last, r.time());
                n++;
            }
            out.collect(machine + " ran from " + first / 1000 + " s for " + (last - first) / 1000 + " s, " + n + " readings");
        }
    }
    // end::session-function[]

    @Test
    void session_runCyclesPerMachine() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> out = new CollectSink<>();
        DataStream<Reading> spindle = readings(pipeline,
                new Reading("lathe-1", "spindle", 1, 0),
                new Reading("lathe-1", "spindle", 1, 90_000),
                new Reading("lathe-1", "spindle", 1, 150_000),
                new Reading("lathe-1", "spindle", 1, 600_000),
                new Reading("lathe-1", "spindle", 1, 610_000));
        // tag::session[]
        spindle
                .keyBy(Reading::machine)
                .window(Windows.session(Duration.ofMinutes(2)))
                .process(new RunCycle())
                .sinkTo(out);
        // end::session[]
        pipeline.execute("run cycles");
        assertThat(out.results()).containsExactlyInAnyOrder(
                "lathe-1 ran from 0 s for 150 s, 3 readings", "lathe-1 ran from 600 s for 10 s, 2 readings");
    }

    @Test
    void countWindows_andGlobalWindowsWithATrigger() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Double> movingMax = new CollectSink<>();
        CollectSink<Long> batches = new CollectSink<>();
        List<Reading> list = new ArrayList<>();
        for (int i = 1; i <= 7; i++) {
            list.add(new Reading("press-1", "pressure", i, i));
        }
        DataStream<Reading> pressure = pipeline.fromCollection(list);
        // tag::count[]
        pressure.keyBy(Reading::machine)
                .countWindow(3, 1)                        // every reading: the max of the last 3
                .reduce((a, b) -> a.value() >= b.value() ? a : b)
                .map(Reading::value)
                .sinkTo(movingMax);

        pressure.keyBy(Reading::machine)
                .window(Windows.global())                 // one window per key ...
                .trigger(Triggers.purging(Triggers.count(5))) // ... emptied every 5 readings
                .aggregate(new CountReadings<>())
                .sinkTo(batches);
        // end::count[]
        pipeline.execute("count windows");
        assertThat(movingMax.results()).containsExactly(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0);
        assertThat(batches.results()).as("the last 2 readings never reach 5").containsExactly(5L);
    }

    // tag::custom-trigger[]
    /** Fires at the window's end, and early as soon as a reading crosses the limit. */
    static final class EarlyAlarm extends Trigger<Reading, Window> {
        private final double limit;

        EarlyAlarm(double limit) {
            this.limit = limit;
        }

        @Override
        public TriggerResult onElement(Reading r, long timestamp, Window window, Context ctx) {
            ctx.registerEventTimeTimer(window.maxTimestamp());
            return r.value() > limit ? TriggerResult.FIRE : TriggerResult.CONTINUE;
        }

        @Override
        public TriggerResult onEventTime(long time, Window window, Context ctx) {
            return time == window.maxTimestamp() ? TriggerResult.FIRE : TriggerResult.CONTINUE;
        }

        @Override
        public TriggerResult onProcessingTime(long time, Window window, Context ctx) {
            return TriggerResult.CONTINUE;
        }

        @Override
        public void clear(Window window, Context ctx) {
            ctx.deleteEventTimeTimer(window.maxTimestamp());
        }
    }
    // end::custom-trigger[]

    /** Reports the firing index and the window's reading count. */
    static final class Firings extends ProcessWindowFunction<Long, String, String, TimeWindow> {
        @Override
        public void process(String machine, Context<TimeWindow> ctx, Iterable<Long> counts, Collector<String> out) {
            out.collect("firing " + ctx.firing() + ": " + counts.iterator().next() + " readings");
        }
    }

    @Test
    void customTrigger_firesEarlyOnAnAlarm() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1));
        CollectSink<String> out = new CollectSink<>();
        DataStream<Reading> temperatures = readings(pipeline,
                new Reading("oven-2", "temperature", 180, 1_000),
                new Reading("oven-2", "temperature", 260, 2_000),
                new Reading("oven-2", "temperature", 190, 3_000));
        // tag::custom-trigger-use[]
        temperatures.keyBy(Reading::machine)
                .window(Windows.tumbling(Duration.ofMinutes(1)))
                .trigger(new EarlyAlarm(250))
                .aggregate(new CountReadings<>(), new Firings())
                .sinkTo(out);
        // end::custom-trigger-use[]
        pipeline.execute("early alarm");
        assertThat(out.results()).containsExactly("firing 0: 2 readings", "firing 1: 3 readings");
    }

    // tag::lateness-function[]
    /** Reports every firing of a window; firing 0 is on time, later ones are updates for late readings. */
    static final class MaxWithFiring extends ProcessWindowFunction<Reading, String, String, TimeWindow> {
        @Override
        public void process(String machine, Context<TimeWindow> ctx, Iterable<Reading> max, Collector<String> out) {
            out.collect(machine + " minute " + ctx.window().start() / MINUTE + " firing " + ctx.firing()
                    + ": max " + max.iterator().next().value());
        }
    }
    // end::lateness-function[]

    @Test
    void allowedLatenessAndLateSideOutput() {
        // watermark interval 0: every watermark crosses to the window at once, so which reading is late is exact
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1).watermarkInterval(Duration.ZERO));
        FeedSource<Reading> feed = new FeedSource<>(); // a test source: one record per poll, so a watermark after each
        DataStream<Reading> temperatures = pipeline.fromSource(feed,
                WatermarkStrategy.<Reading>monotonous().withTimestampAssigner((r, ts) -> r.time()), "temperatures");
        CollectSink<String> out = new CollectSink<>();
        CollectSink<Reading> tooLate = new CollectSink<>();
        // tag::lateness[]
        OutputTag<Reading> late = new OutputTag<>("too-late");

        DataStream<String> maxima = temperatures
                .keyBy(Reading::machine)
                .window(Windows.tumbling(Duration.ofMinutes(1)))
                .allowedLateness(Duration.ofMinutes(2))
                .sideOutputLateData(late)
                .reduce((a, b) -> a.value() >= b.value() ? a : b, new MaxWithFiring());

        maxima.sinkTo(out);
        maxima.getSideOutput(late).sinkTo(tooLate);
        // end::lateness[]
        feed.add(new Reading("oven-2", "temperature", 180, 10_000))      // minute 0
                .add(new Reading("oven-2", "temperature", 185, 70_000))  // watermark passes minute 0: it fires
                .add(new Reading("oven-2", "temperature", 200, 20_000))  // late, within 2 min: minute 0 fires again
                .add(new Reading("oven-2", "temperature", 170, 190_000)) // watermark passes 0:59 + 2 min
                .add(new Reading("oven-2", "temperature", 210, 30_000))  // too late: side output
                .end();
        pipeline.execute("lateness");
        assertThat(out.results()).containsExactly(
                "oven-2 minute 0 firing 0: max 180.0",
                "oven-2 minute 0 firing 1: max 200.0",
                "oven-2 minute 1 firing 0: max 185.0",
                "oven-2 minute 3 firing 0: max 170.0");
        assertThat(tooLate.results()).extracting(Reading::time).containsExactly(30_000L);
    }

    @Test
    void processingTimeWindows_followThePipelineClock() throws Exception {
        ManualClock clock = new ManualClock(0);
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1).clock(clock));
        FeedSource<Reading> feed = new FeedSource<>();
        DataStream<Reading> readings = pipeline.fromSource(feed, WatermarkStrategy.noWatermarks(), "readings");
        CollectSink<Long> out = new CollectSink<>();
        // tag::processing-time[]
        readings.keyBy(Reading::machine)
                .window(Windows.tumbling(Duration.ofSeconds(10)).inProcessingTime())
                .aggregate(new CountReadings<>())
                .sinkTo(out);
        // end::processing-time[]
        JobHandle job = pipeline.executeAsync("processing-time windows");
        try {
            feed.add(new Reading("press-1", "pressure", 4, 0)).add(new Reading("press-1", "pressure", 5, 0));
            Await.until("two readings in", () -> job.metrics().sum("window", m -> m.recordsIn()) == 2);
            clock.advance(Duration.ofSeconds(10));
            Await.until("the window [0 s, 10 s) fired", () -> out.size() == 1);
            assertThat(out.results()).containsExactly(2L);
            feed.end();
            assertThat(job.await(Duration.ofSeconds(20))).isNotNull();
        } finally {
            job.cancel();
        }
    }
}
