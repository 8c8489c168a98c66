package io.millrace.connector.kafka;

import io.millrace.connector.kafka.broker.KafkaTestBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Writes test input to the shared broker and reads topics back as a read_committed consumer. */
final class KafkaTestData {
    private KafkaTestData() {}

    /** The broker of {@link #withOwnBroker} while one runs, else the shared one. */
    private static volatile KafkaTestBroker own;

    static KafkaTestBroker broker() {
        KafkaTestBroker b = own;
        return b != null ? b : KafkaTestBroker.shared();
    }

    /** Something to run that may throw. */
    interface Body {
        void run() throws Exception;
    }

    /**
     * Runs {@code body} with {@link #broker()} answering a broker started for it alone, closed afterwards: for tests
     * that stop or kill the broker, so that the shared one is never bounced under the tests after them.
     */
    static void withOwnBroker(Body body) throws Exception {
        try (KafkaTestBroker b = KafkaTestBroker.started()) {
            own = b;
            body.run();
        } finally {
            own = null;
        }
    }

    /** A topic name no other test uses. */
    static String topic(String prefix) {
        return prefix + "-" + java.util.UUID.randomUUID().toString().substring(0, 8);
    }

    static KafkaProducer<byte[], byte[]> producer(Map<String, Object> extra) {
        Map<String, Object> props = new HashMap<>(extra);
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers());
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Writes {@code values} as UTF-8 to the given partition, key "k<value>", record timestamp {@code timestamp(i)}. */
    static void write(String topic, int partition, List<String> values, java.util.function.IntToLongFunction timestamp) throws Exception {
        // one request in flight: a first batch refused (a partition whose leader is not known yet) is not overtaken
        try (KafkaProducer<byte[], byte[]> p = producer(Map.of(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1))) {
            List<java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata>> sent = new java.util.ArrayList<>();
            for (int i = 0; i < values.size(); i++) {
                sent.add(p.send(new ProducerRecord<>(topic, partition, timestamp.applyAsLong(i), bytes("k" + values.get(i)), bytes(values.get(i)))));
            }
            p.flush();
            for (var f : sent) {
                f.get(); // a record the broker did not take fails the test here, not later as a missing record
            }
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Every committed record of every partition of {@code topic}, per partition in offset order. */
    static Map<Integer, List<ConsumerRecord<byte[], byte[]>>> readCommitted(String topic) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> out = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> tps = new ArrayList<>();
            for (PartitionInfo info : c.partitionsFor(topic)) {
                tps.add(new TopicPartition(topic, info.partition()));
                out.put(info.partition(), new ArrayList<>());
            }
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> ends = c.endOffsets(tps);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (tps.stream().anyMatch(tp -> c.position(tp) < ends.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read " + topic + " to its end " + ends + " within 60 s");
                }
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    out.get(r.partition()).add(r);
                }
            }
        }
        return out;
    }

    static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
