package io.millrace.bench.kafka;

import io.millrace.bench.workload.kafka.KafkaJob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The broker's own ceiling, no engine: {@code copy} runs, per unit of parallelism, a thread with a plain consumer
 * of its share of the partitions and a transactional producer, one transaction per second carrying the records
 * copied and the consumer's offsets (the least an exactly-once topic-to-topic copy does); {@code consume} only
 * reads its share, {@code read_committed}, until all {@code --records} are read, then prints
 * {@link KafkaJob#DONE}. Usage: {@code BrokerCeiling copy|consume <KafkaJob arguments>}.
 */
public final class BrokerCeiling {
    private BrokerCeiling() {}

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        KafkaJob job = KafkaJob.parse(java.util.Arrays.copyOfRange(args, 1, args.length));
        int partitions;
        try (KafkaConsumer<byte[], byte[]> probe = consumer(job)) {
            partitions = probe.partitionsFor(job.input).size();
        }
        AtomicLong read = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        KafkaJob.started();
        for (int t = 0; t < job.parallelism; t++) {
            List<TopicPartition> mine = new ArrayList<>();
            for (int p = t; p < partitions; p += job.parallelism) {
                mine.add(new TopicPartition(job.input, p));
            }
            int thread = t;
            Thread th = new Thread(() -> {
                try {
                    if (mode.equals("copy")) {
                        copy(job, mine, thread);
                    } else {
                        consume(job, mine, read);
                    }
                } catch (Exception e) {
                    e.printStackTrace();
                    System.exit(1);
                }
            }, "ceiling-" + t);
            threads.add(th);
            th.start();
        }
        for (Thread th : threads) {
            th.join();
        }
        System.out.println(KafkaJob.DONE + " " + System.currentTimeMillis());
        System.out.flush();
        System.exit(0);
    }

    private static KafkaConsumer<byte[], byte[]> consumer(KafkaJob job) {
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, job.bootstrap);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, job.id);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Reads until the whole input ({@code --records} in all threads) has been read. */
    private static void consume(KafkaJob job, List<TopicPartition> mine, AtomicLong read) {
        if (mine.isEmpty()) {
            return;
        }
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(job)) {
            consumer.assign(mine);
            consumer.seekToBeginning(mine);
            long sink = 0;
            while (read.get() < job.records) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    sink += r.value().length;
                }
                read.addAndGet(records.count());
            }
            if (sink < 0) {
                System.out.println(sink);
            }
        }
    }

    /** Copies its partitions to the output topic (same key, value, timestamp), a transaction every second; never ends. */
    private static void copy(KafkaJob job, List<TopicPartition> mine, int thread) {
        if (mine.isEmpty()) {
            return;
        }
        Map<String, Object> pc = new HashMap<>();
        pc.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, job.bootstrap);
        pc.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, job.id + "-" + thread);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(job);
                KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(pc, new ByteArraySerializer(), new ByteArraySerializer())) {
            consumer.assign(mine);
            consumer.seekToBeginning(mine);
            producer.initTransactions();
            ConsumerGroupMetadata group = new ConsumerGroupMetadata(job.id);
            while (true) {
                producer.beginTransaction();
                long end = System.nanoTime() + 1_000_000_000L;
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                while (System.nanoTime() < end) {
                    ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(Math.max(1, (end - System.nanoTime()) / 1_000_000)));
                    for (ConsumerRecord<byte[], byte[]> r : records) {
                        producer.send(new ProducerRecord<>(job.output, null, r.timestamp(), r.key(), r.value()));
                        offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
                    }
                }
                if (!offsets.isEmpty()) {
                    producer.sendOffsetsToTransaction(offsets, group);
                }
                producer.commitTransaction();
            }
        }
    }
}
