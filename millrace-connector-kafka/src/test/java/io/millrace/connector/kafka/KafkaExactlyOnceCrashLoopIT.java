package io.millrace.connector.kafka;

import static io.millrace.connector.kafka.KafkaTestData.broker;
import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.runtime.checkpoint.CrashLoop;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's transactions system test in Millrace's terms: {@link KafkaCopyJob} copies 100,000 numbered records from a
 * topic of four partitions to another through keyed state and the exactly-once sink, in a child JVM killed with
 * SIGKILL 20 times, each time at a random moment after it completed a checkpoint of its own, and restarted each time with nothing but its checkpoint directory, then run to
 * the end. A read_committed consumer reading the output all along, and one reading it at the end, see every record
 * exactly once and in order per partition, each with the count its keyed state had reached; no transaction of the
 * sink is left open.
 */
class KafkaExactlyOnceCrashLoopIT {
    static final int PARTITIONS = 4;
    static final int RECORDS = 100_000;
    static final int KILLS = 20;
    /**
     * Time the killed runs take per record at the source: about 2,500 records/s in all, so that 20 runs, each killed
     * within 1.5 s of its first checkpoint, copy only part of the input. The last run is not held.
     */
    static final long MICROS_PER_RECORD = 800;

    @TempDir
    Path dir;

    @Test
    void whenKilledTwentyTimes_thenAReadCommittedConsumerSeesEveryRecordExactlyOnceInOrderPerPartition_andNoTransactionIsLeftOpen() throws Exception {
        String in = KafkaTestData.topic("copy-in");
        String out = KafkaTestData.topic("copy-out");
        writeInput(in, out, RECORDS);

        ConcurrentReader during = new ConcurrentReader(out);
        during.start();
        try {
            // each run is killed once it has completed a checkpoint of its own, at a random moment up to 1.5 s later: a
            // slow start (a loaded machine, a busy broker) cannot turn the kills into kills before the stream began
            CrashLoop.killAfterEachCheckpoint(dir.resolve("checkpoints").resolve("checkpoints"), KILLS, 33, 1_500,
                    () -> start(in, out, MICROS_PER_RECORD));
            int beforeLast = during.size();
            assertThat(beforeLast).as("records committed by the killed runs: the kills fell mid-stream").isBetween(1, RECORDS - 1);
            Process last = start(in, out, 0);
            assertThat(last.waitFor(120, TimeUnit.SECONDS)).as("the last run finishes, see %s", dir.resolve("job.log")).isTrue();
            assertThat(last.exitValue()).as("exit code of the last run, see %s", dir.resolve("job.log")).isZero();
        } finally {
            during.stopAfterEnd();
        }
        assertThat(Files.readString(dir.resolve("job.log"))).contains("FINISHED");

        assertExactlyOnce(out, RECORDS, during);
    }

    /**
     * The broker is SIGKILLed and started again while the job runs (between kills of the job): the job's producers
     * and consumers wait for it or the job fails and is started again from its checkpoint directory; either way a
     * read_committed consumer sees every record once, in order per partition, and no transaction is left open.
     */
    @Test
    void whenTheBrokerIsBouncedMidRun_thenTheOutputIsStillExactlyOnceInOrderPerPartition_andNoTransactionIsLeftOpen() throws Exception {
        KafkaTestData.withOwnBroker(this::bounceMidRun);
    }

    private void bounceMidRun() throws Exception {
        int records = 30_000;
        String in = KafkaTestData.topic("bounce-in");
        String out = KafkaTestData.topic("bounce-out");
        writeInput(in, out, records);
        ConcurrentReader during = new ConcurrentReader(out);
        during.start();
        int runsEndedByTheirOwnError = 0;
        try {
            Process job = start(in, out, MICROS_PER_RECORD);
            Process first = job;
            // the first run commits some of the input (a checkpoint completed) before it is killed, however slow the machine
            io.millrace.testing.Await.until("a first commit of the first run, see " + dir.resolve("job.log"), Duration.ofSeconds(90),
                    () -> during.size() > 0 || !first.isAlive());
            killAfter(job, 0);
            job = start(in, out, MICROS_PER_RECORD);
            assertThat(job.waitFor(2000, TimeUnit.MILLISECONDS)).as("the job still runs when the broker goes down").isFalse();
            broker().stop();
            try {
                job.waitFor(3000, TimeUnit.MILLISECONDS); // the broker stays down this long, or until the job gives up
            } finally {
                broker().start();
            }
            if (job.waitFor(3000, TimeUnit.MILLISECONDS)) {
                runsEndedByTheirOwnError += job.exitValue() == 0 ? 0 : 1; // failed on the outage: started again below, from its checkpoint
            } else {
                job.destroyForcibly();
                assertThat(job.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
            job = start(in, out, MICROS_PER_RECORD);
            killAfter(job, 2500);
            int beforeLast = during.size();
            assertThat(beforeLast).as("records committed before the last run: the bounce and kills fell mid-stream").isBetween(1, records - 1);
            Process last = start(in, out, 0);
            assertThat(last.waitFor(90, TimeUnit.SECONDS)).as("the last run finishes, see %s", dir.resolve("job.log")).isTrue();
            assertThat(last.exitValue()).as("exit code of the last run, see %s", dir.resolve("job.log")).isZero();
        } finally {
            broker().start();
            during.stopAfterEnd();
        }
        org.slf4j.LoggerFactory.getLogger(KafkaExactlyOnceCrashLoopIT.class).info("runs that failed on the broker's outage: {}", runsEndedByTheirOwnError);
        assertExactlyOnce(out, records, during);
    }

    private static void killAfter(Process job, long millis) throws InterruptedException {
        if (job.waitFor(millis, TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the job ended before it was killed, exit code " + job.exitValue());
        }
        job.destroyForcibly(); // SIGKILL
        assertThat(job.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    private static void writeInput(String in, String out, int records) throws Exception {
        broker().createTopic(in, PARTITIONS);
        broker().createTopic(out, PARTITIONS);
        try (KafkaProducer<byte[], byte[]> p = KafkaTestData.producer(Map.of())) {
            for (int i = 0; i < records; i++) {
                int partition = i % PARTITIONS;
                p.send(new ProducerRecord<>(in, partition, null, KafkaTestData.bytes(partition + ":" + i / PARTITIONS)));
            }
            p.flush();
        }
    }

    private static void assertExactlyOnce(String out, int records, ConcurrentReader during) throws Exception {
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> committed = KafkaTestData.readCommitted(out);
        for (int part = 0; part < PARTITIONS; part++) {
            List<String> expected = new ArrayList<>();
            for (int seq = 0; seq < records / PARTITIONS; seq++) {
                expected.add(seq + ":" + (seq + 1));
            }
            assertThat(committed.get(part).stream().map(r -> KafkaTestData.text(r.value())).toList())
                    .as("output partition %d read at the end", part).containsExactlyElementsOf(expected);
            assertThat(during.values(part)).as("output partition %d read during the kills", part).containsExactlyElementsOf(expected);
        }
        assertThat(during.failure()).isNull();
        LingeringTransactions transactions = new LingeringTransactions(Map.of("bootstrap.servers", broker().bootstrapServers()),
                new TransactionalIds(out), "check");
        assertThat(transactions.ongoing(0)).as("open transactions of subtask 0").isEmpty();
        assertThat(transactions.ongoing(1)).as("open transactions of subtask 1").isEmpty();
    }

    private Process start(String in, String out, long microsPerRecord) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                KafkaCopyJob.class.getName(), broker().bootstrapServers(), in, out, dir.toString(), Long.toString(microsPerRecord))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("job.log").toFile()))
                .start();
    }

    /** A read_committed consumer of the output on its own thread, from the start until told the job has ended. */
    static final class ConcurrentReader extends Thread {
        private final String topic;
        private final Map<Integer, List<String>> values = new HashMap<>();
        private final AtomicBoolean ended = new AtomicBoolean();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        ConcurrentReader(String topic) {
            super("read-committed-during-kills");
            this.topic = topic;
            setDaemon(true);
        }

        @Override
        public void run() {
            Map<String, Object> props = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers(),
                    ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                List<TopicPartition> tps = new ArrayList<>();
                for (int p = 0; p < PARTITIONS; p++) {
                    tps.add(new TopicPartition(topic, p));
                }
                c.assign(tps);
                c.seekToBeginning(tps);
                boolean caughtUp = false;
                while (!caughtUp) {
                    boolean endedBefore = ended.get();
                    for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(100))) {
                        synchronized (values) {
                            values.computeIfAbsent(r.partition(), k -> new ArrayList<>()).add(KafkaTestData.text(r.value()));
                        }
                    }
                    if (endedBefore) {
                        Map<TopicPartition, Long> ends = c.endOffsets(tps);
                        caughtUp = tps.stream().allMatch(tp -> c.position(tp) >= ends.get(tp));
                    }
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        }

        /** After the job's last run ended: reads on to the end of the output, then stops (at most 60 s). */
        void stopAfterEnd() throws InterruptedException {
            ended.set(true);
            join(60_000);
            if (isAlive()) {
                failure.compareAndSet(null, new AssertionError("the concurrent reader did not reach the end of the output in 60 s"));
                interrupt();
            }
        }

        int size() {
            synchronized (values) {
                return values.values().stream().mapToInt(List::size).sum();
            }
        }

        List<String> values(int partition) {
            synchronized (values) {
                return new ArrayList<>(values.getOrDefault(partition, List.of()));
            }
        }

        Throwable failure() {
            return failure.get();
        }
    }
}
