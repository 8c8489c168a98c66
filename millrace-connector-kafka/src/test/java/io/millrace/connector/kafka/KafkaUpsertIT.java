package io.millrace.connector.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.source.BadRecord;
import io.millrace.api.source.BadRecordPolicy;
import io.millrace.api.table.KeyedTable;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.format.JsonRowFormat;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A changelog written to a compacted topic as upserts, exactly once, and read back from it as a table. */
class KafkaUpsertIT {
    static final RowType MACHINE = RowType.builder()
            .field("machine", FieldType.STRING)
            .field("recipe", FieldType.STRING)
            .field("speed", FieldType.INT)
            .nullableField("limit", FieldType.DOUBLE)
            .build();
    static final RowType KEY = RowType.builder().field("machine", FieldType.STRING).build();

    @TempDir
    Path dir;

    @Test
    void changelog_toCompactedTopic_andBackAsATable_givesTheSameFinalTable() throws Exception {
        Random random = new Random(20261203L);
        List<Row> changelog = new ArrayList<>();
        Map<String, Row> model = new HashMap<>();
        int deletes = 0;
        int updateBefores = 0;
        for (int i = 0; i < 2_000; i++) {
            String machine = "m" + random.nextInt(40);
            Row current = model.get(machine);
            if (current != null && random.nextInt(5) == 0) {
                changelog.add(current.withKind(RowKind.DELETE));
                model.remove(machine);
                deletes++;
                continue;
            }
            Row next = Row.of(MACHINE, machine, "recipe-" + random.nextInt(7), random.nextInt(3_000),
                    random.nextBoolean() ? null : Math.round(random.nextDouble() * 1_000) / 10.0);
            if (current == null) {
                changelog.add(next);
            } else {
                changelog.add(current.withKind(RowKind.UPDATE_BEFORE));
                changelog.add(next.withKind(RowKind.UPDATE_AFTER));
                updateBefores++;
            }
            model.put(machine, next);
        }
        String topic = KafkaTestData.topic("machines");
        createCompacted(topic, 3);
        String brokers = KafkaTestData.broker().bootstrapServers();

        PipelineConfig writeConfig = new PipelineConfig().parallelism(1);
        writeConfig.checkpoints().directory(dir.resolve("write")).interval(Duration.ofMillis(200));
        Pipeline write = Pipeline.create(writeConfig);
        // tag::upsert[]
        KafkaSink<Row> machines = KafkaSink.builder(KafkaUpserts.serializer(topic,
                        JsonRowFormat.of(KEY), JsonRowFormat.of(MACHINE)))  // key {"machine":"m7"}, value the row as JSON
                .bootstrapServers(brokers)
                .exactlyOnce("machines-" + topic)
                .build();
        write.fromCollection(changelog).sinkTo(machines);      // +I, +U: key and row; -D: a tombstone; -U: nothing
        // end::upsert[]
        write.execute("changelog to upserts");

        List<ConsumerRecord<byte[], byte[]>> raw = KafkaTestData.readCommitted(topic).values().stream().flatMap(List::stream).toList();
        assertThat(raw).hasSize(changelog.size() - updateBefores);
        assertThat(raw.stream().filter(r -> r.value() == null)).hasSize(deletes);
        assertThat(raw).allMatch(r -> r.key() != null && KafkaTestData.text(r.key()).startsWith("{\"machine\":\"m"));

        Pipeline read = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Row> tableChanges = new CollectSink<>();
        // tag::table[]
        KafkaSource<Row> upserts = KafkaSource.builder(KafkaUpserts.deserializer(JsonRowFormat.of(KEY), JsonRowFormat.of(MACHINE)))
                .bootstrapServers(brokers)
                .topics(topic)
                .startingOffsets(StartingOffsets.earliest())
                .bounded()
                .build();
        KeyedTable<String> table = KeyedTable.fromUpserts(
                read.fromSource(upserts, WatermarkStrategy.noWatermarks(), "machines"), r -> r.getString("machine"));
        table.toChangelog().sinkTo(tableChanges);               // the latest row per machine, as a changelog
        // end::table[]
        read.execute("upserts to table");

        Map<String, Row> applied = new HashMap<>();
        for (Row change : tableChanges.results()) {
            String machine = change.getString("machine");
            switch (change.kind()) {
                case INSERT, UPDATE_AFTER -> applied.put(machine, change.withKind(RowKind.INSERT));
                case UPDATE_BEFORE -> assertThat(applied.get(machine)).as("-U retracts the row held").isEqualTo(change);
                case DELETE -> assertThat(applied.remove(machine)).as("-D retracts the row held, not a placeholder").isEqualTo(change);
            }
        }
        assertThat(applied).isEqualTo(model);
    }

    @Test
    void aTombstoneWithoutAKey_orAValueThatIsNotJson_isADeadLetter_andTheRestIsRead() throws Exception {
        String topic = KafkaTestData.topic("machines-bad");
        KafkaTestData.broker().createTopic(topic, 1); // a compacted topic refuses records without a key

        try (KafkaProducer<byte[], byte[]> p = KafkaTestData.producer(Map.of())) {
            p.send(new ProducerRecord<>(topic, 0, 1_000L, KafkaTestData.bytes("{\"machine\":\"m1\"}"),
                    KafkaTestData.bytes("{\"machine\":\"m1\",\"recipe\":\"r\",\"speed\":1200}")));
            p.send(new ProducerRecord<>(topic, 0, 1_001L, (byte[]) null, (byte[]) null));
            p.send(new ProducerRecord<>(topic, 0, 1_002L, KafkaTestData.bytes("{\"machine\":\"m2\"}"),
                    KafkaTestData.bytes("{\"machine\":\"m2\",\"recipe\":\"r\",\"speed\":\"fast\"}")));
            p.flush();
        }
        assertThat(KafkaTestData.readCommitted(topic).get(0)).hasSize(3);
        Pipeline read = Pipeline.create(new PipelineConfig().parallelism(1));
        KafkaSource<Row> upserts = KafkaSource.builder(KafkaUpserts.deserializer(JsonRowFormat.of(KEY), JsonRowFormat.of(MACHINE)))
                .bootstrapServers(KafkaTestData.broker().bootstrapServers()).topics(topic)
                .startingOffsets(StartingOffsets.earliest()).bounded().build();
        CollectSink<Row> rows = new CollectSink<>();
        CollectSink<BadRecord> dead = new CollectSink<>();
        var stream = read.fromSource(upserts, WatermarkStrategy.noWatermarks(), BadRecordPolicy.DEAD_LETTER, "machines");
        stream.sinkTo(rows);
        stream.getSideOutput(BadRecord.DEAD_LETTERS).sinkTo(dead);
        read.execute("bad upserts");

        assertThat(dead.results()).as("dead letters %s", dead.results().stream().map(BadRecord::reason).toList()).hasSize(2);
        assertThat(rows.results()).containsExactly(Row.ofKind(RowKind.UPDATE_AFTER, MACHINE, "m1", "r", 1200, null));
        assertThat(dead.results().get(0).reason()).contains("tombstone without a key");
        assertThat(dead.results().get(1).reason()).contains("field 'speed' (INT) expects an integer").contains("\"fast\"");
    }

    @Test
    void keyFieldsMustBeFieldsOfTheRow() {
        RowType wrongKey = RowType.builder().field("machine", FieldType.INT).build();
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> KafkaUpserts.serializer("t", JsonRowFormat.of(wrongKey), JsonRowFormat.of(MACHINE)))
                .hasMessageContaining("key field 'machine' (INT)").hasMessageContaining("it is STRING");
    }

    private static void createCompacted(String topic, int partitions) throws Exception {
        try (Admin admin = KafkaTestData.broker().admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1).configs(Map.of("cleanup.policy", "compact"))))
                    .all().get(30, TimeUnit.SECONDS);
        }
    }
}
