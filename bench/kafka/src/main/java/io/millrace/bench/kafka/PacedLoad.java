package io.millrace.bench.kafka;

import io.millrace.bench.workload.kafka.KafkaJob;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The latency run's producer, on a thread of its own: readings at a fixed rate into the latency input topic, each
 * stamped with its send time (its Kafka timestamp is the wall clock, its value ends with {@code System.nanoTime()}
 * at the send). It runs untimed until {@code warm} says the engine is through its start, then {@code seconds}
 * timed. It notes when each 10 s window of event time was closed on every partition (the first reading at or past
 * the window's end sent to the last of them), the moment a count result could first be known, and which machines
 * each window has.
 */
final class PacedLoad implements Runnable {
    private final String bootstrap;
    private final String topic;
    private final int partitions;
    private final double rate;
    private final long timedNanos;
    private final BooleanSupplier warm;
    volatile long timedFrom = Long.MAX_VALUE;
    volatile long timedUntil = Long.MAX_VALUE;
    volatile boolean done;
    volatile Throwable failure;
    long timedSent;
    long sent;
    /** Window start → nanoTime at which every partition had a reading at or past the window's end. */
    final Map<Long, Long> closedAt = new ConcurrentHashMap<>();
    /** Window start → machines with readings in it (written by this thread; read after {@link #done}). */
    final Map<Long, BitSet> machines = new HashMap<>();

    PacedLoad(String bootstrap, String topic, int partitions, double rate, long timedSeconds, BooleanSupplier warm) {
        this.bootstrap = bootstrap;
        this.topic = topic;
        this.partitions = partitions;
        this.rate = rate;
        this.timedNanos = timedSeconds * 1_000_000_000L;
        this.warm = warm;
    }

    @Override
    public void run() {
        Map<String, Object> pc = new HashMap<>();
        pc.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        pc.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(pc, new ByteArraySerializer(), new ByteArraySerializer())) {
            long origin = System.nanoTime();
            long pendingEnd = Long.MIN_VALUE;
            int passed = 0;
            int all = (1 << partitions) - 1;
            for (long i = 0; ; i++) {
                long due = origin + (long) (i * 1e9 / rate);
                long now;
                while ((now = System.nanoTime()) < due) {
                    long wait = due - now;
                    if (wait > 200_000) {
                        java.util.concurrent.locks.LockSupport.parkNanos(wait - 100_000);
                    }
                }
                if (now >= timedUntil) {
                    break;
                }
                if (timedFrom == Long.MAX_VALUE && (i & 255) == 0 && warm.getAsBoolean()) {
                    timedUntil = now + timedNanos;
                    timedFrom = now;
                }
                long ts = System.currentTimeMillis();
                int p = Readings.partition(i, partitions);
                long start = KafkaJob.windowStart(ts);
                if (pendingEnd == Long.MIN_VALUE) {
                    pendingEnd = start + KafkaJob.WINDOW_MS;
                } else if (ts >= pendingEnd) {
                    passed |= 1 << p;
                    if (passed == all) {
                        closedAt.put(pendingEnd - KafkaJob.WINDOW_MS, System.nanoTime());
                        pendingEnd += KafkaJob.WINDOW_MS;
                        passed = 0;
                    }
                }
                machines.computeIfAbsent(start, s -> new BitSet(Readings.MACHINES)).set((int) (i % Readings.MACHINES));
                long stamp = System.nanoTime();
                byte[] value = (i + "," + Readings.celsius(i) + "," + stamp).getBytes(StandardCharsets.US_ASCII);
                producer.send(new ProducerRecord<>(topic, p, ts, Readings.key(i), value));
                sent++;
                if (stamp >= timedFrom) {
                    timedSent++;
                }
            }
            producer.flush();
        } catch (Throwable t) {
            failure = t;
        } finally {
            done = true;
        }
    }
}
