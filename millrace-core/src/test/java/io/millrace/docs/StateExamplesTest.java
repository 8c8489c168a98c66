package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.state.AggregatingState;
import io.millrace.api.state.AggregatingStateDescriptor;
import io.millrace.api.state.ListState;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ReducingState;
import io.millrace.api.state.ReducingStateDescriptor;
import io.millrace.api.state.SortedMapState;
import io.millrace.api.state.SortedMapStateDescriptor;
import io.millrace.api.state.StateTtlConfig;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.testing.Await;
import io.millrace.testing.FeedSource;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The examples of docs/state.md; each runs here. */
class StateExamplesTest {

    record Reading(String machine, String sensor, double value, long time) {}

    /** Mean of doubles; the accumulator is {sum, count}. */
    static final class Mean implements AggregateFunction<Double, double[], Double> {
        @Override
        public double[] createAccumulator() {
            return new double[2];
        }

        @Override
        public double[] add(Double v, double[] acc) {
            acc[0] += v;
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

    // tag::kinds[]
    /** A summary per machine at the end of the input, kept in the five kinds of keyed state. */
    static final class MachineSummary extends KeyedProcessFunction<String, Reading, String> {
        private transient ValueState<Long> lastSeen;
        private transient ListState<Double> alarms;
        private transient MapState<String, Double> latest;
        private transient ReducingState<Double> peak;
        private transient AggregatingState<Double, Double> mean;

        @Override
        public void open(RuntimeContext context) {
            lastSeen = context.state().getState(new ValueStateDescriptor<>("last-seen"));
            alarms = context.state().getListState(new ListStateDescriptor<>("alarms"));
            latest = context.state().getMapState(new MapStateDescriptor<>("latest-per-sensor"));
            peak = context.state().getReducingState(new ReducingStateDescriptor<>("peak", Math::max));
            mean = context.state().getAggregatingState(new AggregatingStateDescriptor<>("mean", new Mean()));
        }

        @Override
        public void processElement(Reading r, Context<String> ctx, Collector<String> out) {
            lastSeen.update(r.time());
            latest.put(r.sensor(), r.value());
            if (r.sensor().equals("temperature")) {
                peak.add(r.value());
                mean.add(r.value());
                if (r.value() > 90) {
                    alarms.add(r.value());
                }
            }
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE); // fires when the input ends
        }

        @Override
        public void onTimer(long time, OnTimerContext<String> ctx, Collector<String> out) {
            out.collect(ctx.currentKey() + ": last seen " + lastSeen.value() + ", sensors " + latest.entries().iterator().next().getKey()
                    + ", peak " + peak.get() + ", mean " + mean.get() + ", alarms " + alarms.get());
        }
    }
    // end::kinds[]

    @Test
    void everyKindOfKeyedState() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> out = new CollectSink<>();
        pipeline.fromElements(
                        new Reading("press-1", "temperature", 80, 1_000),
                        new Reading("press-1", "temperature", 95, 2_000),
                        new Reading("press-1", "temperature", 92, 3_000))
                .assignTimestampsAndWatermarks(WatermarkStrategy.<Reading>monotonous().withTimestampAssigner((r, ts) -> r.time()))
                .keyBy(Reading::machine)
                .process(new MachineSummary())
                .sinkTo(out);
        pipeline.execute("summary");
        assertThat(out.results()).containsExactly(
                "press-1: last seen 3000, sensors temperature, peak 95.0, mean 89.0, alarms [95.0, 92.0]");
    }

    // tag::sorted[]
    /** The mean of a machine's readings of the last 10 s of event time (an OVER window), kept in time order. */
    static final class RecentMean extends KeyedProcessFunction<String, Reading, String> {
        private transient SortedMapState<Long, Double> byTime;

        @Override
        public void open(RuntimeContext context) {
            byTime = context.state().getSortedMapState(new SortedMapStateDescriptor<>("readings-by-time", Long.class));
        }

        @Override
        public void processElement(Reading r, Context<String> ctx, Collector<String> out) {
            byTime.put(r.time(), r.value());
            for (Map.Entry<Long, Double> old : byTime.headMap(r.time() - 10_000)) {
                byTime.remove(old.getKey()); // readings older than the window are not needed again
            }
            double sum = 0;
            int n = 0;
            for (Map.Entry<Long, Double> e : byTime.range(r.time() - 10_000, r.time() + 1)) {
                sum += e.getValue();
                n++;
            }
            out.collect(ctx.currentKey() + " at " + r.time() + ": mean " + sum / n + " of " + n
                    + ", since " + byTime.firstEntry().getKey());
        }
    }
    // end::sorted[]

    @Test
    void sortedMapState_keepsReadingsInTimeOrder_forARangeOverTheLastTenSeconds() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> out = new CollectSink<>();
        pipeline.fromElements(
                        new Reading("press-1", "temperature", 80, 1_000),
                        new Reading("press-1", "temperature", 90, 6_000),
                        new Reading("press-1", "temperature", 70, 4_000),
                        new Reading("press-1", "temperature", 100, 14_000),
                        new Reading("press-1", "temperature", 60, 30_000))
                .keyBy(Reading::machine)
                .process(new RecentMean())
                .sinkTo(out);
        pipeline.execute("recent mean");
        assertThat(out.results()).containsExactly(
                "press-1 at 1000: mean 80.0 of 1, since 1000",
                "press-1 at 6000: mean 85.0 of 2, since 1000",
                "press-1 at 4000: mean 75.0 of 2, since 1000",
                "press-1 at 14000: mean 86.66666666666667 of 3, since 4000",
                "press-1 at 30000: mean 60.0 of 1, since 30000");
    }

    // tag::ttl[]
    /** Passes the first alarm of a machine and suppresses repeats for 10 minutes after it. */
    static final class AlarmDeduplicator extends KeyedProcessFunction<String, Reading, Reading> {
        private transient ValueState<Boolean> recentlyRaised;

        @Override
        public void open(RuntimeContext context) {
            ValueStateDescriptor<Boolean> d = new ValueStateDescriptor<>("recently-raised");
            d.enableTimeToLive(StateTtlConfig.afterWrite(Duration.ofMinutes(10)));
            recentlyRaised = context.state().getState(d);
        }

        @Override
        public void processElement(Reading alarm, Context<String> ctx, Collector<Reading> out) {
            if (recentlyRaised.value() == null) {
                recentlyRaised.update(true);
                out.collect(alarm);
            }
        }
    }
    // end::ttl[]

    @Test
    void ttl_suppressesRepeatsUntilTheStateExpires() throws Exception {
        ManualClock clock = new ManualClock(0);
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1).clock(clock));
        FeedSource<Reading> alarms = new FeedSource<>(); // a test source fed while the job runs
        CollectSink<Reading> out = new CollectSink<>();
        pipeline.fromSource(alarms, WatermarkStrategy.noWatermarks(), "alarms")
                .keyBy(Reading::machine)
                .process(new AlarmDeduplicator())
                .name("dedup")
                .sinkTo(out);
        JobHandle job = pipeline.executeAsync("dedup");
        try {
            alarms.add(new Reading("oven-2", "temperature", 260, 0)).add(new Reading("oven-2", "temperature", 261, 0));
            Await.until("both alarms seen", () -> job.metrics().sum("dedup", m -> m.recordsIn()) == 2);
            clock.advance(Duration.ofMinutes(9));
            alarms.add(new Reading("oven-2", "temperature", 262, 0));
            Await.until("third alarm seen", () -> job.metrics().sum("dedup", m -> m.recordsIn()) == 3);
            clock.advance(Duration.ofMinutes(1));
            alarms.add(new Reading("oven-2", "temperature", 263, 0)).end();
            assertThat(job.await(Duration.ofSeconds(20))).isNotNull();
            assertThat(out.results()).extracting(Reading::value).containsExactly(260.0, 263.0);
        } finally {
            job.cancel();
        }
    }

    // tag::timers[]
    /** Reports a machine that sent nothing for 30 s of processing time; each reading restarts its timer. */
    static final class StalledMachine extends KeyedProcessFunction<String, Reading, String> {
        private transient ValueState<Long> deadline;

        @Override
        public void open(RuntimeContext context) {
            deadline = context.state().getState(new ValueStateDescriptor<>("deadline"));
        }

        @Override
        public void processElement(Reading r, Context<String> ctx, Collector<String> out) {
            Long previous = deadline.value();
            if (previous != null) {
                ctx.timerService().deleteProcessingTimeTimer(previous);
            }
            long next = ctx.timerService().currentProcessingTime() + 30_000;
            ctx.timerService().registerProcessingTimeTimer(next);
            deadline.update(next);
        }

        @Override
        public void onTimer(long time, OnTimerContext<String> ctx, Collector<String> out) {
            out.collect(ctx.currentKey() + " stalled at " + time);
            deadline.clear();
        }
    }
    // end::timers[]

    @Test
    void processingTimeTimers_fireByTheClock_andPendingOnesDoNotFireAtTheEnd() throws Exception {
        ManualClock clock = new ManualClock(0);
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1).clock(clock));
        FeedSource<Reading> readings = new FeedSource<>();
        CollectSink<String> out = new CollectSink<>();
        pipeline.fromSource(readings, WatermarkStrategy.noWatermarks(), "readings")
                .keyBy(Reading::machine)
                .process(new StalledMachine())
                .name("stalls")
                .sinkTo(out);
        JobHandle job = pipeline.executeAsync("stalls");
        try {
            readings.add(new Reading("press-1", "pressure", 4, 0)).add(new Reading("press-2", "pressure", 4, 0));
            Await.until("readings seen", () -> job.metrics().sum("stalls", m -> m.recordsIn()) == 2);
            clock.advance(Duration.ofSeconds(20));
            readings.add(new Reading("press-1", "pressure", 4, 0)); // press-1's deadline moves to 50 s
            Await.until("third reading seen", () -> job.metrics().sum("stalls", m -> m.recordsIn()) == 3);
            clock.advance(Duration.ofSeconds(10));
            Await.until("press-2 stalls at 30 s", () -> out.size() == 1);
            assertThat(out.results()).containsExactly("press-2 stalled at 30000");
            readings.end(); // press-1's timer at 50 s is still pending: it does not fire
            assertThat(job.await(Duration.ofSeconds(20))).isNotNull();
            assertThat(out.results()).containsExactly("press-2 stalled at 30000");
        } finally {
            job.cancel();
        }
    }
}
