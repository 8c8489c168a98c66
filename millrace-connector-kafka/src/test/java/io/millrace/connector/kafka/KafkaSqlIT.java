package io.millrace.connector.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.PipelineConfig;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.sql.SqlSession;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code kafka} and {@code upsert-kafka} SQL tables against the real broker of the tests. */
class KafkaSqlIT {
    @TempDir
    Path dir;

    private final String brokers = KafkaTestData.broker().bootstrapServers();

    @Test
    void insertFromAKafkaTableIntoAKafkaTable_exactlyOnce_isReadBackCommittedOnce() throws Exception {
        String in = KafkaTestData.topic("sql-readings");
        String out = KafkaTestData.topic("sql-hot");
        KafkaTestData.broker().createTopic(in, 3);
        KafkaTestData.broker().createTopic(out, 2);
        Random random = new Random(20261204L);
        List<String> expected = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> p = KafkaTestData.producer(Map.of())) {
            for (int i = 0; i < 600; i++) {
                String machine = "m" + random.nextInt(12);
                double temp = Math.round(random.nextDouble() * 1000) / 10.0;
                String json = "{\"machine\":\"" + machine + "\",\"temp\":" + temp + ",\"ts\":" + (1_767_225_600_000L + i * 100L) + "}";
                p.send(new ProducerRecord<>(in, i % 3, null, KafkaTestData.bytes(json))).get();
                if (temp >= 80) {
                    expected.add(machine + "|{\"machine\":\"" + machine + "\",\"temp\":" + temp + "}");
                }
            }
        }
        SqlSession sql = SqlSession.create(new PipelineConfig().parallelism(2));
        // tag::kafka[]
        sql.executeScript("""
                SET 'execution.checkpointing.interval' = '200ms';
                SET 'execution.checkpointing.dir' = '%s';

                CREATE TABLE readings (
                  machine STRING,
                  temp DOUBLE,
                  ts TIMESTAMP_LTZ(3),
                  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
                ) WITH (
                  'connector' = 'kafka',
                  'topic' = '%s',
                  'properties.bootstrap.servers' = '%s',
                  'properties.group.id' = 'hot-readings',
                  'scan.startup.mode' = 'earliest-offset',
                  'scan.bounded.mode' = 'latest-offset',
                  'format' = 'json'
                );

                CREATE TABLE hot (machine STRING, temp DOUBLE) WITH (
                  'connector' = 'kafka',
                  'topic' = '%s',
                  'properties.bootstrap.servers' = '%s',
                  'key.format' = 'json',
                  'key.fields' = 'machine',
                  'value.format' = 'json',
                  'sink.delivery-guarantee' = 'exactly-once',
                  'sink.transactional-id-prefix' = 'hot-readings'
                );

                INSERT INTO hot SELECT machine, temp FROM readings WHERE temp >= 80;
                """.formatted(dir.resolve("checkpoints"), in, brokers, out, brokers));
        // end::kafka[]

        awaitNoOpenTransaction(out, 2);
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> read = KafkaTestData.readCommitted(out);
        List<String> actual = new ArrayList<>();
        long records = 0;
        for (List<ConsumerRecord<byte[], byte[]>> partition : read.values()) {
            for (ConsumerRecord<byte[], byte[]> r : partition) {
                actual.add(KafkaTestData.text(r.key()).replaceAll("\\{\"machine\":\"(m\\d+)\"}", "$1") + "|" + KafkaTestData.text(r.value()));
                records++;
            }
        }
        assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
        long endOffsets;
        try (var c = consumer("read_uncommitted")) {
            endOffsets = c.endOffsets(List.of(new TopicPartition(out, 0), new TopicPartition(out, 1))).values().stream().mapToLong(Long::longValue).sum();
        }
        assertThat(endOffsets).as("commit markers take offsets: the records were written in transactions").isGreaterThan(records);
    }

    @Test
    void upsertKafka_writtenFromAChangelog_writesKeysAndTombstones_andReadsBackAsAChangelog() throws Exception {
        String in = KafkaTestData.topic("sql-machines-in");
        String out = KafkaTestData.topic("sql-machines-out");
        KafkaTestData.broker().createTopic(in, 2);
        KafkaTestData.broker().createTopic(out, 2);
        Random random = new Random(7L);
        Map<String, String> model = new TreeMap<>();
        int tombstones = 0;
        try (KafkaProducer<byte[], byte[]> p = KafkaTestData.producer(Map.of())) {
            for (int i = 0; i < 400; i++) {
                String machine = "m" + random.nextInt(15);
                byte[] key = KafkaTestData.bytes("{\"machine\":\"" + machine + "\"}");
                int partition = Math.floorMod(machine.hashCode(), 2);
                if (model.containsKey(machine) && random.nextInt(4) == 0) {
                    p.send(new ProducerRecord<>(in, partition, key, null)).get();
                    model.remove(machine);
                    tombstones++;
                } else {
                    String recipe = "recipe-" + random.nextInt(5);
                    int speed = random.nextInt(3000);
                    p.send(new ProducerRecord<>(in, partition, key,
                            KafkaTestData.bytes("{\"machine\":\"" + machine + "\",\"recipe\":\"" + recipe + "\",\"speed\":" + speed + "}"))).get();
                    model.put(machine, "{\"recipe\":\"" + recipe.toUpperCase(Locale.ROOT) + "\",\"speed\":" + speed * 2 + "}");
                }
            }
        }
        SqlSession sql = SqlSession.create(new PipelineConfig().parallelism(2));
        // tag::upsert[]
        sql.executeScript("""
                SET 'execution.checkpointing.interval' = '200ms';
                SET 'execution.checkpointing.dir' = '%s';

                CREATE TABLE machines (
                  machine STRING,
                  recipe STRING,
                  speed INT,
                  PRIMARY KEY (machine) NOT ENFORCED
                ) WITH (
                  'connector' = 'upsert-kafka',
                  'topic' = '%s',
                  'properties.bootstrap.servers' = '%s',
                  'key.format' = 'json',
                  'value.format' = 'json',
                  'scan.bounded.mode' = 'latest-offset'
                );

                CREATE TABLE machine_settings (
                  machine STRING,
                  recipe STRING,
                  speed INT,
                  PRIMARY KEY (machine) NOT ENFORCED
                ) WITH (
                  'connector' = 'upsert-kafka',
                  'topic' = '%s',
                  'properties.bootstrap.servers' = '%s',
                  'key.format' = 'json',
                  'value.format' = 'json',
                  'value.fields-include' = 'EXCEPT_KEY',
                  'scan.bounded.mode' = 'latest-offset',
                  'sink.delivery-guarantee' = 'exactly-once',
                  'sink.transactional-id-prefix' = 'machine-settings'
                );

                INSERT INTO machine_settings SELECT machine, UPPER(recipe), speed * 2 FROM machines;
                """.formatted(dir.resolve("checkpoints"), in, brokers, out, brokers));
        // end::upsert[]

        Map<String, String> table = new TreeMap<>();
        int written = 0;
        int deletes = 0;
        awaitNoOpenTransaction(out, 2);
        for (List<ConsumerRecord<byte[], byte[]>> partition : KafkaTestData.readCommitted(out).values()) {
            for (ConsumerRecord<byte[], byte[]> r : partition) {
                String machine = KafkaTestData.text(r.key()).replaceAll("\\{\"machine\":\"(m\\d+)\"}", "$1");
                written++;
                if (r.value() == null) {
                    table.remove(machine);
                    deletes++;
                } else {
                    table.put(machine, KafkaTestData.text(r.value()));
                }
            }
        }
        assertThat(written).isEqualTo(400);
        assertThat(deletes).isEqualTo(tombstones);
        assertThat(table).isEqualTo(model);

        sql.execute("RESET 'execution.checkpointing.dir'"); // the queries below are other jobs: not from the insert's checkpoints
        String plan = sql.query("EXPLAIN INSERT INTO machine_settings SELECT machine, UPPER(recipe), speed * 2 FROM machines").get(0).getString(0);
        assertThat(plan).contains("Sink(table=[machine_settings], distribution=[hash[machine]], changelogMode=[UA,D])")
                .contains("TableSourceScan(table=[machines]").contains("changelogMode=[UA,D])");

        List<Row> changes = sql.query("SELECT machine, recipe, speed FROM machine_settings");
        Map<String, Row> applied = new LinkedHashMap<>();
        for (Row r : changes) {
            assertThat(r.kind()).isIn(RowKind.UPDATE_AFTER, RowKind.DELETE);
            if (r.kind() == RowKind.DELETE) {
                assertThat(r.isNullAt(1)).as("a tombstone gives the key only").isTrue();
                applied.remove(r.getString(0));
            } else {
                applied.put(r.getString(0), r);
            }
        }
        Map<String, String> readBack = new TreeMap<>();
        applied.forEach((m, r) -> readBack.put(m, "{\"recipe\":\"" + r.getString(1) + "\",\"speed\":" + r.getInt(2) + "}"));
        assertThat(readBack).isEqualTo(model);
    }

    /**
     * Waits until no transaction is open on {@code topic}: its last stable offsets equal its end offsets. A committed
     * transaction's markers reach the partitions shortly after the commit returns, and until they do a read_committed
     * reader stops before the transaction's records.
     */
    private void awaitNoOpenTransaction(String topic, int partitions) {
        List<TopicPartition> tps = new java.util.ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            tps.add(new TopicPartition(topic, p));
        }
        try (var committed = consumer("read_committed"); var uncommitted = consumer("read_uncommitted")) {
            io.millrace.testing.Await.until("the transactions on " + topic + " are complete", java.time.Duration.ofSeconds(60),
                    () -> committed.endOffsets(tps).equals(uncommitted.endOffsets(tps)));
        }
    }

    private org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]> consumer(String isolation) {
        return new org.apache.kafka.clients.consumer.KafkaConsumer<>(Map.of("bootstrap.servers", brokers, "isolation.level", isolation),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer(), new org.apache.kafka.common.serialization.ByteArrayDeserializer());
    }

    @Test
    void startupModes_timestampSpecificOffsetsAndGroupOffsets_startWhereTheySay() throws Exception {
        String topic = KafkaTestData.topic("sql-startup");
        KafkaTestData.broker().createTopic(topic, 1);
        try (KafkaProducer<byte[], byte[]> p = KafkaTestData.producer(Map.of())) {
            for (int i = 0; i < 10; i++) {
                p.send(new ProducerRecord<>(topic, 0, 1_000L * (i + 1), null, KafkaTestData.bytes("reading-" + i))).get();
            }
        }
        String group = "sql-startup-group-" + topic;
        try (Admin admin = KafkaTestData.broker().admin()) {
            admin.alterConsumerGroupOffsets(group, Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(8))).all().get(30, TimeUnit.SECONDS);
        }
        SqlSession sql = SqlSession.create(new PipelineConfig().parallelism(1));
        String common = "'connector' = 'kafka', 'topic' = '" + topic + "', 'properties.bootstrap.servers' = '" + brokers
                + "', 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw'";
        sql.executeScript("""
                CREATE TABLE from_time (line STRING) WITH (%s, 'scan.startup.mode' = 'timestamp', 'scan.startup.timestamp-millis' = '7000');
                CREATE TABLE from_offsets (line STRING) WITH (%s, 'scan.startup.mode' = 'specific-offsets',
                  'scan.startup.specific-offsets' = 'partition:0,offset:5');
                CREATE TABLE from_group (line STRING) WITH (%s, 'properties.group.id' = '%s');
                CREATE TABLE from_latest (line STRING) WITH (%s, 'scan.startup.mode' = 'latest-offset');
                """.formatted(common, common, common, group, common));
        assertThat(sql.query("SELECT line FROM from_time")).extracting(r -> r.getString(0))
                .containsExactly("reading-6", "reading-7", "reading-8", "reading-9");
        assertThat(sql.query("SELECT line FROM from_offsets")).extracting(r -> r.getString(0))
                .containsExactly("reading-5", "reading-6", "reading-7", "reading-8", "reading-9");
        assertThat(sql.query("SELECT line FROM from_group")).extracting(r -> r.getString(0)).containsExactly("reading-8", "reading-9");
        assertThat(sql.query("SELECT line FROM from_latest")).isEmpty();
    }
}
