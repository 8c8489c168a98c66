package io.millrace.connector.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.source.BadRecord;
import io.millrace.api.source.BadRecordPolicy;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example of docs/kafka.md, run against the test broker. */
class KafkaDocsExampleIT {
    @TempDir
    Path dir;

    /** A temperature reading of a machine, from its text form "machine,celsius". */
    record Reading(String machine, double celsius) implements java.io.Serializable {
        static Reading parse(String text) {
            int comma = text.indexOf(',');
            if (comma < 0) {
                throw new IllegalArgumentException("expected machine,celsius");
            }
            try {
                return new Reading(text.substring(0, comma), Double.parseDouble(text.substring(comma + 1)));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("celsius is not a number: '" + text.substring(comma + 1) + "'");
            }
        }
    }

    @Test
    void docsExample_writesHotReadingsExactlyOnce_andSendsUnreadableOnesToDeadLetters() throws Exception {
        String brokers = KafkaTestData.broker().bootstrapServers();
        String readingsTopic = KafkaTestData.topic("readings");
        String alarmsTopic = KafkaTestData.topic("alarms");
        KafkaTestData.broker().createTopic(readingsTopic, 2);
        KafkaTestData.broker().createTopic(alarmsTopic, 2);
        KafkaTestData.write(readingsTopic, 0, List.of("press-1,71.5", "press-1,88.0", "press-1,oops"), i -> 1_000 + i);
        KafkaTestData.write(readingsTopic, 1, List.of("oven-2,91.2", "oven-2,64.0"), i -> 1_000 + i);
        Path checkpoints = dir.resolve("checkpoints");
        CollectSink<BadRecord> unreadable = new CollectSink<>();

        // tag::example[]
        PipelineConfig config = new PipelineConfig();
        config.checkpoints().directory(checkpoints).interval(Duration.ofSeconds(1));   // exactly-once commits at checkpoints
        Pipeline pipeline = Pipeline.create(config);

        KafkaSource<Reading> readings = KafkaSource.builder((KafkaRecordDeserializer<Reading>) r ->
                        Reading.parse(new String(r.value(), StandardCharsets.UTF_8)))   // throws on a malformed reading
                .bootstrapServers(brokers)
                .topics(readingsTopic)
                .startingOffsets(StartingOffsets.earliest())
                .bounded()                                       // stop at the end offsets found at start; leave out to run on
                .build();

        KafkaSink<Reading> alarms = KafkaSink.builder(KafkaRecordSerializer.<Reading>to(alarmsTopic,
                        r -> r.machine().getBytes(StandardCharsets.UTF_8),                // key: the machine
                        r -> (r.machine() + "," + r.celsius()).getBytes(StandardCharsets.UTF_8)))
                .bootstrapServers(brokers)
                .exactlyOnce("plant-7-alarms")                   // transactional id prefix: stable, unique to this sink
                .build();

        var hot = pipeline.fromSource(readings,
                WatermarkStrategy.<Reading>boundedOutOfOrderness(Duration.ofSeconds(5)),  // event time: the record timestamps
                BadRecordPolicy.DEAD_LETTER, "readings");
        hot.filter(r -> r.celsius() >= 85.0).sinkTo(alarms);
        hot.getSideOutput(BadRecord.DEAD_LETTERS).sinkTo(unreadable);     // raw text, topic/partition/offset, reason

        pipeline.execute("hot readings");
        // end::example[]

        assertThat(KafkaTestData.readCommitted(alarmsTopic).values().stream().flatMap(List::stream).map(r -> KafkaTestData.text(r.value())))
                .containsExactlyInAnyOrder("press-1,88.0", "oven-2,91.2");
        assertThat(unreadable.results()).singleElement().satisfies(bad -> {
            assertThat(bad.rawText()).isEqualTo("press-1,oops");
            assertThat(bad.location()).isEqualTo("topic " + readingsTopic + ", partition 0, offset 2");
            assertThat(bad.reason()).isEqualTo("celsius is not a number: 'oops'");
        });
    }
}
