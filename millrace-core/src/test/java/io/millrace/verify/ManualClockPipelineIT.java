package io.millrace.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.StateTtlConfig;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.Windows;
import io.millrace.testing.Await;
import io.millrace.testing.FeedSource;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * State TTL, processing-time timers and processing-time windows in running pipelines, driven by a
 * {@link ManualClock}. Everything runs at parallelism 1, so when the answer to a probe record reaches the
 * sink, every timer due before the probe was sent has fired and its output is already there.
 */
class ManualClockPipelineIT {

    /** A command for key {@code key}: "put" a value, "get" the state, "remind", "cancel", or "probe". */
    record Cmd(String key, String op, String arg) implements java.io.Serializable {}

    /** Three states with a 10 s TTL: a value expiring after write, one after access, and a map after write. */
    static final class TtlStates extends KeyedProcessFunction<String, Cmd, String> {
        private transient ValueState<String> afterWrite;
        private transient ValueState<String> afterAccess;
        private transient MapState<String, String> entries;

        @Override
        public void open(RuntimeContext context) {
            ValueStateDescriptor<String> w = new ValueStateDescriptor<>("after-write");
            w.enableTimeToLive(StateTtlConfig.afterWrite(Duration.ofSeconds(10)));
            ValueStateDescriptor<String> a = new ValueStateDescriptor<>("after-access");
            a.enableTimeToLive(StateTtlConfig.afterAccess(Duration.ofSeconds(10)));
            MapStateDescriptor<String, String> m = new MapStateDescriptor<>("entries");
            m.enableTimeToLive(StateTtlConfig.afterWrite(Duration.ofSeconds(10)));
            afterWrite = context.state().getState(w);
            afterAccess = context.state().getState(a);
            entries = context.state().getMapState(m);
        }

        @Override
        public void processElement(Cmd c, Context<String> ctx, Collector<String> out) {
            switch (c.op()) {
                case "put" -> {
                    afterWrite.update(c.arg());
                    afterAccess.update(c.arg());
                    entries.put(c.arg(), c.arg());
                }
                case "put-entry" -> entries.put(c.arg(), c.arg());
                case "get" -> {
                    StringBuilder keys = new StringBuilder();
                    entries.entries().forEach(e -> keys.append(keys.length() == 0 ? "" : ",").append(e.getKey()));
                    out.collect(c.key() + " write=" + afterWrite.value() + " access=" + afterAccess.value() + " map=[" + keys + "]");
                }
                default -> out.collect("probe " + c.arg());
            }
        }
    }

    private static void probe(FeedSource<Cmd> feed, CollectSink<String> sink, String id) {
        feed.add(new Cmd("probe", "probe", id));
        Await.until("probe " + id + " answered", () -> sink.results().contains("probe " + id));
    }

    private static String ask(FeedSource<Cmd> feed, CollectSink<String> sink, String key) {
        int before = sink.size();
        feed.add(new Cmd(key, "get", ""));
        Await.until("answer for " + key, () -> sink.size() > before);
        return sink.results().get(before);
    }

    @Test
    void ttlState_expiresAfterWriteOrAfterAccess_asTheClockAdvances() throws Exception {
        ManualClock clock = new ManualClock(1_000_000);
        FeedSource<Cmd> feed = new FeedSource<>();
        CollectSink<String> sink = new CollectSink<>();
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1).clock(clock));
        p.fromSource(feed, WatermarkStrategy.noWatermarks(), "commands").keyBy(Cmd::key).process(new TtlStates()).sinkTo(sink);
        JobHandle job = p.executeAsync("ttl");
        try {
            feed.add(new Cmd("a", "put", "x"));
            assertThat(ask(feed, sink, "a")).isEqualTo("a write=x access=x map=[x]");
            clock.advance(Duration.ofSeconds(6));
            feed.add(new Cmd("a", "put-entry", "y"));
            assertThat(ask(feed, sink, "a")).as("6 s: all live; the read restarts after-access")
                    .isEqualTo("a write=x access=x map=[x,y]");
            clock.advance(Duration.ofSeconds(5));
            assertThat(ask(feed, sink, "a")).as("11 s: written 11 s ago, read 5 s ago; map entry y written 5 s ago")
                    .isEqualTo("a write=null access=x map=[y]");
            clock.advance(Duration.ofMillis(9_999));
            assertThat(ask(feed, sink, "a")).as("just under 10 s after the last read").isEqualTo("a write=null access=x map=[]");
            clock.advance(Duration.ofSeconds(10));
            assertThat(ask(feed, sink, "a")).as("10 s after the last read").isEqualTo("a write=null access=null map=[]");
            assertThat(ask(feed, sink, "b")).as("another key never had state").isEqualTo("b write=null access=null map=[]");
            feed.end();
            assertThat(job.await(Duration.ofSeconds(20))).as("job ends with its input").isNotNull();
        } finally {
            job.cancel();
        }
    }

    /** Reminds 5 s (processing time) after a "remind"; "cancel" deletes the reminder. */
    static final class Reminders extends KeyedProcessFunction<String, Cmd, String> {
        private transient ValueState<Long> due;

        @Override
        public void open(RuntimeContext context) {
            due = context.state().getState(new ValueStateDescriptor<>("due"));
        }

        @Override
        public void processElement(Cmd c, Context<String> ctx, Collector<String> out) {
            long now = ctx.timerService().currentProcessingTime();
            switch (c.op()) {
                case "remind" -> {
                    due.update(now + 5_000);
                    ctx.timerService().registerProcessingTimeTimer(now + 5_000);
                }
                case "cancel" -> {
                    ctx.timerService().deleteProcessingTimeTimer(due.value());
                    due.clear();
                }
                default -> out.collect("probe " + c.arg());
            }
        }

        @Override
        public void onTimer(long time, OnTimerContext<String> ctx, Collector<String> out) {
            out.collect(ctx.currentKey() + " reminded at " + time + " (" + ctx.timeDomain() + ")");
        }
    }

    @Test
    void processingTimeTimers_fireWhenTheClockReachesThem_onceAndNotAfterDeletion() throws Exception {
        ManualClock clock = new ManualClock(1_000_000);
        FeedSource<Cmd> feed = new FeedSource<>();
        CollectSink<String> sink = new CollectSink<>();
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1).clock(clock));
        p.fromSource(feed, WatermarkStrategy.noWatermarks(), "commands").keyBy(Cmd::key).process(new Reminders()).sinkTo(sink);
        JobHandle job = p.executeAsync("reminders");
        try {
            feed.add(new Cmd("a", "remind", "")).add(new Cmd("b", "remind", "")).add(new Cmd("b", "remind", ""))
                    .add(new Cmd("c", "remind", "")).add(new Cmd("c", "cancel", ""));
            probe(feed, sink, "1");
            clock.advance(Duration.ofMillis(4_999));
            probe(feed, sink, "2");
            assertThat(sink.results()).as("nothing is due yet").containsExactly("probe 1", "probe 2");

            clock.advance(Duration.ofMillis(1));
            Await.until("reminders fire", () -> sink.size() >= 4);
            probe(feed, sink, "3");
            assertThat(sink.results()).as("a and b once each (b registered twice at the same time), c deleted")
                    .containsExactlyInAnyOrder("probe 1", "probe 2", "a reminded at 1005000 (PROCESSING_TIME)",
                            "b reminded at 1005000 (PROCESSING_TIME)", "probe 3");
            clock.advance(Duration.ofMinutes(1));
            probe(feed, sink, "4");
            assertThat(sink.size()).as("nothing fires twice").isEqualTo(6);
            feed.end();
            assertThat(job.await(Duration.ofSeconds(20))).isNotNull();
        } finally {
            job.cancel();
        }
    }

    /** Counts records. */
    static final class Count implements AggregateFunction<Cmd, long[], String> {
        @Override
        public long[] createAccumulator() {
            return new long[1];
        }

        @Override
        public long[] add(Cmd value, long[] acc) {
            acc[0]++;
            return acc;
        }

        @Override
        public String getResult(long[] acc) {
            return "count " + acc[0];
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            a[0] += b[0];
            return a;
        }
    }

    @Test
    void processingTimeWindows_fireWhenTheClockPassesTheirEnd() throws Exception {
        ManualClock clock = new ManualClock(1_000_000);
        FeedSource<Cmd> feed = new FeedSource<>();
        CollectSink<String> sink = new CollectSink<>();
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1).clock(clock));
        p.fromSource(feed, WatermarkStrategy.noWatermarks(), "commands")
                .keyBy(Cmd::key)
                .window(Windows.tumbling(Duration.ofSeconds(10)).inProcessingTime())
                .aggregate(new Count())
                .sinkTo(sink);
        JobHandle job = p.executeAsync("processing-time windows");
        try {
            feed.add(new Cmd("a", "", "")).add(new Cmd("a", "", "")).add(new Cmd("b", "", ""));
            Await.until("records are in", () -> job.metrics().sum("window", m -> m.recordsIn()) == 3);
            clock.advance(Duration.ofMillis(9_998));
            feed.add(new Cmd("a", "", ""));
            Await.until("record 4 is in", () -> job.metrics().sum("window", m -> m.recordsIn()) == 4);
            assertThat(sink.results()).as("[1000000, 1010000) is still open at 1009998").isEmpty();
            clock.advance(Duration.ofMillis(1));
            Await.until("the window fires at its max timestamp", () -> sink.size() == 2);
            assertThat(sink.results()).containsExactlyInAnyOrder("count 3", "count 1");
            assertThat(sink.timestamps()).containsOnly(1_009_999L);

            feed.add(new Cmd("a", "", ""));
            Await.until("record 5 is in", () -> job.metrics().sum("window", m -> m.recordsIn()) == 5);
            feed.end();
            assertThat(job.await(Duration.ofSeconds(20))).isNotNull();
            assertThat(sink.results()).as("a processing-time window still open when the input ends does not fire").hasSize(2);
        } finally {
            job.cancel();
        }
    }
}
