package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessFunction;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkGenerator;
import io.millrace.api.time.WatermarkOutput;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.Windows;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.testing.FeedSource;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of docs/event-time.md; each runs here. */
class EventTimeExamplesTest {

    record Reading(String machine, String sensor, double value, long time) {}

    @Test
    void timestampsAndWatermarksAtTheSource() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Long> counts = new CollectSink<>();
        // tag::at-source[]
        GeneratorSource<Reading> source = GeneratorSource
                .builder(i -> new Reading("press-" + i % 4, "temperature", 60 + i % 30, 1_000 * i))
                .count(600)
                .build();

        WatermarkStrategy<Reading> strategy = WatermarkStrategy
                .<Reading>boundedOutOfOrderness(Duration.ofSeconds(5))
                .withTimestampAssigner((reading, sourceTimestamp) -> reading.time())
                .withIdleness(Duration.ofMinutes(1));

        DataStream<Reading> readings = pipeline.fromSource(source, strategy, "readings");
        // end::at-source[]
        readings.keyBy(Reading::machine)
                .window(Windows.tumbling(Duration.ofMinutes(1)))
                .aggregate(new WindowsExamplesTest.CountReadings<>())
                .sinkTo(counts);
        pipeline.execute("event time at the source");
        assertThat(counts.results()).as("10 minutes of 4 machines, 15 readings each per minute").hasSize(40).containsOnly(15L);
    }

    @Test
    void watermarkAlignment() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1));
        CollectSink<Long> counts = new CollectSink<>();
        // a press reports every second, an oven every 10 s: read as fast as they come, the oven's readings run ahead
        GeneratorSource<Reading> pressGateway = GeneratorSource
                .builder(i -> new Reading("press-1", "temperature", 60 + i % 30, 1_000 * i))
                .count(3_600)
                .build();
        GeneratorSource<Reading> ovenGateway = GeneratorSource
                .builder(i -> new Reading("oven-1", "temperature", 180 + i % 20, 10_000 * i))
                .count(3_600)
                .build();
        // tag::alignment[]
        WatermarkStrategy<Reading> aligned = WatermarkStrategy
                .<Reading>boundedOutOfOrderness(Duration.ofSeconds(5))
                .withTimestampAssigner((reading, sourceTimestamp) -> reading.time())
                .withWatermarkAlignment("plant", Duration.ofSeconds(30));

        DataStream<Reading> presses = pipeline.fromSource(pressGateway, aligned, "presses");
        DataStream<Reading> ovens = pipeline.fromSource(ovenGateway, aligned, "ovens");
        presses.union(ovens)
                .keyBy(Reading::machine)
                .window(Windows.tumbling(Duration.ofMinutes(1)))
                .aggregate(new WindowsExamplesTest.CountReadings<>())
                .sinkTo(counts);
        // end::alignment[]
        pipeline.execute("aligned gateways");
        List<Long> results = counts.results();
        assertThat(results).as("an hour of the press, 10 hours of the oven").hasSize(60 + 600);
        assertThat(results.stream().filter(c -> c == 60L)).hasSize(60);
        assertThat(results.stream().filter(c -> c == 6L)).hasSize(600);
    }

    @Test
    void timestampsInTheMiddleOfAPipeline() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1));
        CollectSink<Long> counts = new CollectSink<>();
        // tag::mid-stream[]
        DataStream<Reading> readings = pipeline
                .fromElements(
                        new Reading("press-1", "temperature", 70, 1_000),
                        new Reading("press-1", "temperature", 71, 61_000))
                .assignTimestampsAndWatermarks(
                        WatermarkStrategy.<Reading>monotonous().withTimestampAssigner((r, ts) -> r.time()));
        // end::mid-stream[]
        readings.keyBy(Reading::machine)
                .window(Windows.tumbling(Duration.ofMinutes(1)))
                .aggregate(new WindowsExamplesTest.CountReadings<>())
                .sinkTo(counts);
        pipeline.execute("event time mid-stream");
        assertThat(counts.results()).containsExactly(1L, 1L);
    }

    // tag::custom-generator[]
    /** The watermark follows the gateway's heartbeats: "every reading up to this time has been sent". */
    static final class HeartbeatWatermarks implements WatermarkGenerator<Reading> {
        private long lastHeartbeat = Long.MIN_VALUE;

        @Override
        public void onEvent(Reading r, long timestamp, WatermarkOutput output) {
            if (r.sensor().equals("heartbeat")) {
                lastHeartbeat = Math.max(lastHeartbeat, timestamp);
            }
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput output) {
            if (lastHeartbeat != Long.MIN_VALUE) {
                output.emitWatermark(lastHeartbeat);
            }
        }
    }
    // end::custom-generator[]

    // tag::late-filter[]
    /** Passes readings on time and diverts those at or behind the watermark. */
    static final class LateFilter extends ProcessFunction<Reading, Reading> {
        static final OutputTag<Reading> LATE = new OutputTag<>("late-readings");

        @Override
        public void processElement(Reading r, Context ctx, Collector<Reading> out) {
            if (ctx.timestamp() <= ctx.currentWatermark()) {
                ctx.output(LATE, r);
            } else {
                out.collect(r);
            }
        }
    }
    // end::late-filter[]

    @Test
    void customGenerator_andLateRecordsInAProcessFunction() throws Exception {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1));
        FeedSource<Reading> gateway = new FeedSource<>(); // a test source: one record per poll
        CollectSink<Reading> onTime = new CollectSink<>();
        CollectSink<Reading> late = new CollectSink<>();
        // tag::custom-strategy[]
        WatermarkStrategy<Reading> strategy = WatermarkStrategy
                .custom(HeartbeatWatermarks::new)
                .withTimestampAssigner((r, ts) -> r.time());
        DataStream<Reading> checked = pipeline.fromSource(gateway, strategy, "gateway").process(new LateFilter());
        checked.sinkTo(onTime);
        checked.getSideOutput(LateFilter.LATE).sinkTo(late);
        // end::custom-strategy[]
        gateway.add(new Reading("press-1", "temperature", 70, 1_000))
                .add(new Reading("gateway", "heartbeat", 0, 5_000))
                .add(new Reading("press-1", "temperature", 71, 3_000))
                .add(new Reading("press-1", "temperature", 72, 6_000))
                .end();
        pipeline.execute("heartbeats");
        assertThat(onTime.results()).extracting(Reading::time).containsExactly(1_000L, 5_000L, 6_000L);
        assertThat(late.results()).extracting(Reading::time).isEqualTo(List.of(3_000L));
    }
}
