package io.millrace.connector.kafka;

import static io.millrace.connector.kafka.KafkaTestData.broker;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.source.BadRecord;
import io.millrace.api.source.BadRecordPolicy;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.format.CsvRowFormat;
import io.millrace.format.JsonRowFormat;
import io.millrace.format.avro.AvroRowFormat;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Topics of rows in the shared formats against a real broker: Avro records written by Avro's own writer, with a few
 * corrupt ones, read as rows under each bad-record policy; dead letters written to a dead-letter topic; CSV and JSON
 * rows written by the sink and read back.
 */
class KafkaRowFormatsIT {
    static final String SCHEMA = """
            {"type": "record", "name": "Reading", "namespace": "plant", "fields": [
              {"name": "machine", "type": "string"},
              {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
              {"name": "celsius", "type": "double"},
              {"name": "note", "type": ["null", "string"], "default": null}]}""";
    static final Schema AVRO = new Schema.Parser().parse(SCHEMA);
    /** Offsets of the corrupt records in {@link #readings}. */
    static final List<Long> CORRUPT = List.of(3L, 5L, 7L);
    static String readings;

    @TempDir
    Path dir;

    @BeforeAll
    static void writeReadings() throws Exception {
        readings = KafkaTestData.topic("avro-readings");
        broker().createTopic(readings, 1);
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            values.add(avro("m" + i, 1_000L + i, 60.0 + i, i % 2 == 0 ? null : "n" + i));
        }
        values.set(3, Arrays.copyOf(values.get(3), 6));                        // cut short inside 'celsius'
        byte[] badUnion = values.get(5).clone();
        badUnion[badUnion.length - 4] = 8;                                        // the note union's branch: 4 of 2
        values.set(5, badUnion);
        values.set(7, null);                                                      // a tombstone
        try (KafkaProducer<byte[], byte[]> producer = KafkaTestData.producer(Map.of())) {
            for (byte[] v : values) {
                producer.send(new ProducerRecord<>(readings, 0, 1_000L, null, v)).get();
            }
        }
    }

    /** A reading as Avro's generic writer encodes it. */
    static byte[] avro(String machine, long at, double celsius, String note) throws Exception {
        GenericRecord r = new GenericData.Record(AVRO);
        r.put("machine", machine);
        r.put("at", at);
        r.put("celsius", celsius);
        r.put("note", note);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(AVRO).write(r, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    private static List<String> goodMachines() {
        return List.of("m0", "m1", "m2", "m4", "m6", "m8", "m9");
    }

    private static KafkaSource<Row> source(AvroRowFormat format) {
        return KafkaSource.builder(KafkaRecordDeserializer.rows(format)).bootstrapServers(broker().bootstrapServers())
                .topics(readings).bounded().build();
    }

    @Test
    void avroRows_withDeadLettersToATopic_carryTheRawBytesTheLocationAndTheReason() throws Exception {
        String brokers = broker().bootstrapServers();
        String deadLetterTopic = KafkaTestData.topic("readings-dead-letters");
        broker().createTopic(deadLetterTopic, 1);
        CollectSink<Row> rows = new CollectSink<>();
        PipelineConfig config = new PipelineConfig().parallelism(1);
        config.checkpoints().directory(dir.resolve("checkpoints")).interval(Duration.ofSeconds(1));
        Pipeline pipeline = Pipeline.create(config);
        // tag::avro-dead-letters[]
        AvroRowFormat format = AvroRowFormat.ofSchema(SCHEMA);          // or AvroRowFormat.ofSchemaFile(Path.of("reading.avsc"))
        KafkaSource<Row> source = KafkaSource.builder(KafkaRecordDeserializer.rows(format))
                .bootstrapServers(brokers)
                .topics(readings)
                .bounded()
                .build();
        var readingRows = pipeline.fromSource(source, WatermarkStrategy.<Row>noWatermarks(), BadRecordPolicy.DEAD_LETTER, "readings");
        readingRows.sinkTo(rows);
        readingRows.getSideOutput(BadRecord.DEAD_LETTERS)                 // raw bytes, topic/partition/offset, reason
                .sinkTo(KafkaSink.builder(KafkaRecordSerializer.deadLetters(deadLetterTopic))
                        .bootstrapServers(brokers)
                        .exactlyOnce("readings-dead-letters")
                        .build());
        pipeline.execute("avro readings");
        // end::avro-dead-letters[]

        assertThat(rows.results()).extracting(r -> r.getString("machine")).containsExactlyElementsOf(goodMachines());
        assertThat(rows.results().get(1)).isEqualTo(Row.of(format.type(), "m1", 1_001L, 61.0, "n1"));
        List<ConsumerRecord<byte[], byte[]>> letters = KafkaTestData.readCommitted(deadLetterTopic).get(0);
        assertThat(letters).extracting(r -> header(r, KafkaRecordSerializer.LOCATION_HEADER))
                .containsExactly("topic " + readings + ", partition 0, offset 3", "topic " + readings + ", partition 0, offset 5",
                        "topic " + readings + ", partition 0, offset 7");
        assertThat(letters).extracting(r -> header(r, KafkaRecordSerializer.REASON_HEADER)).containsExactly(
                "field 'celsius' (double) at byte 5: the bytes end early (6 bytes)",
                "field 'note' (nullable string) at byte 13: union branch 4 does not exist (the union has 2)",
                "a tombstone (null value) where a row of Avro plant.Reading was expected");
        assertThat(letters.get(0).value()).as("the raw bytes as read").isEqualTo(Arrays.copyOf(avro("m3", 1_003L, 63.0, "n3"), 6));
        assertThat(letters.get(2).value()).as("a tombstone has no bytes").isEmpty();
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    @Test
    void avroRows_skippedBadRecordsAreCounted_andFailNamesTopicPartitionOffsetAndReason() {
        AvroRowFormat format = AvroRowFormat.ofSchema(SCHEMA);
        Pipeline skipping = Pipeline.create(new PipelineConfig().parallelism(1));
        CollectSink<Row> rows = new CollectSink<>();
        skipping.fromSource(source(format), WatermarkStrategy.noWatermarks(), BadRecordPolicy.SKIP, "readings").sinkTo(rows);
        JobResult result = skipping.execute("skip");
        assertThat(rows.results()).extracting(r -> r.getString("machine")).containsExactlyElementsOf(goodMachines());
        assertThat(result.metrics().sum("readings", m -> m.badRecords())).isEqualTo(CORRUPT.size());

        Pipeline failing = Pipeline.create(new PipelineConfig().parallelism(1));
        failing.fromSource(source(format), WatermarkStrategy.noWatermarks(), BadRecordPolicy.FAIL, "readings").sinkTo(new CollectSink<>());
        assertThatThrownBy(() -> failing.execute("fail"))
                .hasStackTraceContaining("topic " + readings + ", partition 0, offset 3")
                .hasStackTraceContaining("field 'celsius' (double) at byte 5: the bytes end early");
    }

    @Test
    void csvAndJsonRows_writtenByTheSink_readBackAsRows() {
        RowType type = RowType.builder().field("machine", FieldType.STRING).field("at", FieldType.TIMESTAMP)
                .nullableField("celsius", FieldType.DOUBLE).build();
        List<Row> written = List.of(Row.of(type, "press, 1", 1L, 71.5), Row.of(type, "oven \"2\"", 2L, null), Row.of(type, "", 3L, -4.0));
        for (io.millrace.format.RowFormat format : List.of(CsvRowFormat.of(type).delimiter(';'), JsonRowFormat.of(type))) {
            String topic = KafkaTestData.topic("rows");
            broker().createTopic(topic, 1);
            Pipeline writing = Pipeline.create(new PipelineConfig().parallelism(1));
            writing.fromCollection(written).sinkTo(KafkaSink.builder(KafkaRecordSerializer.rows(topic, format))
                    .bootstrapServers(broker().bootstrapServers()).build());
            writing.execute("write rows");

            Pipeline reading = Pipeline.create(new PipelineConfig().parallelism(1));
            CollectSink<Row> read = new CollectSink<>();
            reading.fromSource(KafkaSource.builder(KafkaRecordDeserializer.rows(format)).bootstrapServers(broker().bootstrapServers())
                    .topics(topic).bounded().build(), WatermarkStrategy.noWatermarks(), "rows").sinkTo(read);
            reading.execute("read rows");
            assertThat(read.results()).as(format.toString()).containsExactlyElementsOf(written);
        }
    }
}
