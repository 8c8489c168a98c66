package io.millrace.connector.mqtt;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.LineEncoder;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.format.BytesDecoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The job the MQTT crash loop kills again and again: reads messages whose payload is their id ("a-17") at QoS 1
 * through two persistent sessions ({@code <prefix>/a/#} and {@code <prefix>/b/#}), drops ids it has seen before (the
 * broker sends again what was not acknowledged, and a message whose checkpoint completed just before a kill was not
 * acknowledged yet), and writes each id to the exactly-once file sink. Run as {@code MqttCrashLoopJob <dir> <port>
 * <prefix>}; it resumes from {@code <dir>/checkpoints} by itself and stops when the file {@code <dir>/stop} exists.
 */
public final class MqttCrashLoopJob {
    private MqttCrashLoopJob() {}

    static final LineEncoder<String> LINES = new LineEncoder<>() {
        @Override
        public String extension() {
            return "txt";
        }

        @Override
        public void encode(String value, StringBuilder line) {
            line.append(value);
        }
    };

    // tag::dedupe[]
    /** Emits each message id once: the ids seen are keyed state, so they are in every checkpoint. */
    static final class FirstSeen extends KeyedProcessFunction<String, String, String> {
        private transient ValueState<Boolean> seen;

        @Override
        public void open(RuntimeContext context) {
            seen = context.state().getState(new ValueStateDescriptor<>("seen"));
        }

        @Override
        public void processElement(String id, Context<String> ctx, Collector<String> out) {
            if (seen.value() == null) {
                seen.update(Boolean.TRUE);
                out.collect(id);
            } else {
                System.out.println("redelivered " + id);   // sent again by the broker: already in the output
            }
        }
    }
    // end::dedupe[]

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int port = Integer.parseInt(args[1]);
        String prefix = args[2];
        PipelineConfig config = new PipelineConfig().parallelism(2);
        config.checkpoints().directory(dir.resolve("checkpoints")).interval(Duration.ofMillis(200));
        Pipeline p = Pipeline.create(config);
        // tag::crash-loop[]
        MqttSource<String> source = MqttSource.builder(MqttMessageDeserializer.values(BytesDecoder.utf8()))
                .server(MqttServer.of("127.0.0.1", port).withReconnectBackoff(Duration.ofMillis(50), Duration.ofSeconds(1)))
                .topicFilters(prefix + "/a/#", prefix + "/b/#")   // two sessions, one per subtask
                .qos(1)                                           // acknowledged after the checkpoint (the default)
                .clientIdPrefix(prefix)
                .build();
        p.fromSource(source, WatermarkStrategy.<String>noWatermarks(), "mqtt").uid("mqtt")
                .keyBy(id -> id)
                .process(new FirstSeen()).uid("first-seen")
                .sinkTo(TransactionalFileSink.of(dir.resolve("out"), LINES)).uid("out");
        // end::crash-loop[]
        JobHandle job = p.executeAsync("mqtt crash loop");
        Path stop = dir.resolve("stop");
        while (job.await(Duration.ofMillis(100)) == null) {
            if (Files.exists(stop)) {
                job.cancel();
            }
        }
        System.out.println("FINISHED");
        System.exit(0); // the MQTT client's threads must not keep the JVM alive
    }
}
