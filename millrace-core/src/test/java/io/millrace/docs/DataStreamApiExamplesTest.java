package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.CoProcessFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.state.StateTtlConfig;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.WatermarkStrategy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of docs/datastream-api.md; each runs here. */
class DataStreamApiExamplesTest {

    // tag::reading[]
    record Reading(String machine, String sensor, double value, long time) {}
    // end::reading[]

    @Test
    void firstPipeline() {
        // tag::first-pipeline[]
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> alerts = new CollectSink<>();

        pipeline.fromElements(
                        new Reading("press-1", "temperature", 71.5, 1_000),
                        new Reading("press-2", "temperature", 96.0, 2_000),
                        new Reading("press-1", "vibration", 3.2, 3_000))
                .filter(r -> r.sensor().equals("temperature"))
                .filter(r -> r.value() > 90)
                .map(r -> r.machine() + " is hot: " + r.value() + " °C")
                .name("hot-machines")
                .sinkTo(alerts);

        pipeline.execute("hot machines");
        // end::first-pipeline[]
        assertThat(alerts.results()).containsExactly("press-2 is hot: 96.0 °C");
    }

    // tag::keyed-state[]
    /** Counts readings per machine and reports a machine that stays silent for 10 s of event time. */
    static final class SilenceDetector extends KeyedProcessFunction<String, Reading, String> {
        private transient ValueState<Long> lastSeen;

        @Override
        public void open(RuntimeContext context) {
            ValueStateDescriptor<Long> d = new ValueStateDescriptor<>("last-seen");
            d.enableTimeToLive(StateTtlConfig.afterWrite(Duration.ofHours(1)));
            lastSeen = context.state().getState(d);
        }

        @Override
        public void processElement(Reading r, Context<String> ctx, Collector<String> out) {
            Long previous = lastSeen.value();
            if (previous != null) {
                ctx.timerService().deleteEventTimeTimer(previous + 10_000);
            }
            lastSeen.update(r.time());
            ctx.timerService().registerEventTimeTimer(r.time() + 10_000);
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext<String> ctx, Collector<String> out) {
            out.collect(ctx.currentKey() + " silent since " + lastSeen.value());
        }
    }
    // end::keyed-state[]

    @Test
    void keyedStateAndTimers() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> out = new CollectSink<>();
        // tag::keyed-state-use[]
        pipeline.fromElements(
                        new Reading("press-1", "temperature", 70, 1_000),
                        new Reading("press-2", "temperature", 71, 2_000),
                        new Reading("press-1", "temperature", 72, 5_000))
                .assignTimestampsAndWatermarks(
                        WatermarkStrategy.<Reading>monotonous().withTimestampAssigner((r, ts) -> r.time()))
                .keyBy(Reading::machine)
                .process(new SilenceDetector())
                .sinkTo(out);
        // end::keyed-state-use[]
        pipeline.execute("silence");
        // at the end of input the watermark jumps to +inf, so every last reading's timer fires too
        assertThat(out.results()).containsExactlyInAnyOrder("press-1 silent since 5000", "press-2 silent since 2000");
    }

    // tag::connect-function[]
    /** Raises an alarm for a hot reading unless the control stream muted its machine. */
    static final class MutableAlarm extends CoProcessFunction<String, Reading, String> {
        private transient ValueState<Boolean> muted;
        private transient ValueState<Reading> pending;

        @Override
        public void open(RuntimeContext context) {
            muted = context.state().getState(new ValueStateDescriptor<>("muted"));
            pending = context.state().getState(new ValueStateDescriptor<>("pending"));
        }

        @Override
        public void processElement1(String machine, Context ctx, Collector<String> out) {
            muted.update(true);
            pending.clear();
        }

        @Override
        public void processElement2(Reading r, Context ctx, Collector<String> out) {
            if (r.value() > 90 && muted.value() == null) {
                pending.update(r); // decided when the watermark passes the reading: control may still come
                ctx.timerService().registerEventTimeTimer(r.time());
            }
        }

        @Override
        public void onTimer(long timestamp, Context ctx, Collector<String> out) {
            Reading r = pending.value();
            if (r != null && muted.value() == null) {
                out.collect("ALARM " + r.machine() + " at " + r.value());
            }
        }
    }
    // end::connect-function[]

    @Test
    void connectControlAndData() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> out = new CollectSink<>();
        // tag::connect[]
        DataStream<String> muted = pipeline.fromElements("press-2");        // control: machines to mute
        DataStream<Reading> readings = pipeline.fromElements(
                new Reading("press-1", "temperature", 95, 1_000),
                new Reading("press-2", "temperature", 97, 1_000));

        muted.connect(readings)
                .keyBy(machine -> machine, Reading::machine)
                .process(new MutableAlarm())
                .sinkTo(out);
        // end::connect[]
        pipeline.execute("connect");
        assertThat(out.results()).containsExactly("ALARM press-1 at 95.0");
    }

    @Test
    void sideOutputs() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1));
        CollectSink<Reading> valid = new CollectSink<>();
        CollectSink<String> rejected = new CollectSink<>();
        // tag::side-output[]
        OutputTag<String> invalid = new OutputTag<>("invalid-readings");

        DataStream<Reading> checked = pipeline.fromElements(
                        new Reading("press-1", "pressure", 4.2, 1_000),
                        new Reading("press-1", "pressure", -1.0, 2_000))
                .process(new io.millrace.api.functions.ProcessFunction<Reading, Reading>() {
                    @Override
                    public void processElement(Reading r, Context ctx, Collector<Reading> out) {
                        if (r.value() < 0) {
                            ctx.output(invalid, "negative pressure at " + r.time() + " on " + r.machine());
                        } else {
                            out.collect(r);
                        }
                    }
                });
        checked.sinkTo(valid);
        checked.getSideOutput(invalid).sinkTo(rejected);
        // end::side-output[]
        pipeline.execute("side outputs");
        assertThat(valid.results()).hasSize(1);
        assertThat(rejected.results()).containsExactly("negative pressure at 2000 on press-1");
    }

    @Test
    void unionOfStreams() {
        Pipeline pipeline = Pipeline.create();
        CollectSink<Reading> all = new CollectSink<>();
        DataStream<Reading> hall1 = pipeline.fromElements(new Reading("a", "t", 1, 1));
        DataStream<Reading> hall2 = pipeline.fromElements(new Reading("b", "t", 2, 2));
        // tag::union[]
        hall1.union(hall2).sinkTo(all);
        // end::union[]
        pipeline.execute("union");
        assertThat(all.results()).extracting(Reading::machine).containsExactlyInAnyOrderElementsOf(List.of("a", "b"));
    }
}
