package io.millrace.bench.kafka;

import io.millrace.bench.workload.kafka.KafkaJob;
import io.millrace.bench.workload.kafka.KafkaJob.Part;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * One engine and part of one round: the throughput run over the pre-filled input, then (unless it is the
 * consume-only ceiling, or the run was not correct) the paced latency run at half its rate. Returns the ROUND line.
 */
final class EngineRun {
    private final KafkaSuite suite;
    private final String engine;
    private final Part part;
    private final int round;

    EngineRun(KafkaSuite suite, String engine, Part part, int round) {
        this.suite = suite;
        this.engine = engine;
        this.part = part;
        this.round = round;
    }

    String call() throws Exception {
        KafkaSuite.log(engine + " " + part.id() + " round " + round + ", load average " + KafkaSuite.load());
        boolean consumeOnly = engine.equals("broker-consume");
        String out = consumeOnly ? null : suite.nextTopic("out-" + engine + "-" + part.id());
        Path state = Files.createDirectories(suite.work.resolve("run-" + suite.runNumber + "-" + engine));
        OutputCheck check = part == Part.PASSTHROUGH ? new OutputCheck.PassThrough(suite.records) : new OutputCheck.Counts(suite.records, suite.base);
        long timeoutMs = Math.max(180_000, suite.records / 10);
        StringBuilder line = new StringBuilder("ROUND round=" + round + " engine=" + engine + " part=" + part.id() + " records=" + suite.records
                + " parallelism=" + suite.parallelism);
        try (ChildJob job = start(engine, "readings", out, state, "t" + suite.runNumber)) {
            long t0 = System.currentTimeMillis();
            long end;
            long firstOutput = 0;
            if (consumeOnly) {
                while (job.doneMillis() == 0) {
                    job.checkAlive(engine);
                    if (System.currentTimeMillis() - t0 > timeoutMs) {
                        throw new IllegalStateException(engine + " did not finish within " + timeoutMs + " ms");
                    }
                    Thread.sleep(20);
                }
                end = job.doneMillis();
            } else {
                try (KafkaConsumer<byte[], byte[]> consumer = consumer(out)) {
                    while (!check.complete()) {
                        if (System.currentTimeMillis() - t0 > timeoutMs) {
                            break;
                        }
                        job.checkAlive(engine);
                        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(50))) {
                            check.accept(r);
                            if (firstOutput == 0) {
                                firstOutput = System.currentTimeMillis();
                            }
                        }
                    }
                }
                end = System.currentTimeMillis();
            }
            job.stop();
            long started = job.startedMillis();
            double seconds = (end - started) / 1000.0;
            double eps = suite.records / seconds;
            boolean correct = consumeOnly || check.correct();
            line.append(String.format(Locale.ROOT, " seconds=%.2f eps=%.0f correct=%s", seconds, eps, correct));
            if (!consumeOnly) {
                line.append(String.format(Locale.ROOT, " first_output_s=%.2f", (firstOutput - started) / 1000.0));
                if (part == Part.PASSTHROUGH && end > firstOutput) {
                    // the rate once running: from the first committed output (the end of the first checkpoint or commit)
                    line.append(String.format(Locale.ROOT, " running_eps=%.0f", suite.records / ((end - firstOutput) / 1000.0)));
                }
                if (!correct) {
                    line.append(" matched=").append(check.matched).append("/").append(check.expected).append(" wrong=").append(check.wrong);
                    KafkaSuite.log(engine + " " + part.id() + ": output not as expected: " + check.matched + " of " + check.expected
                            + " expected records, " + check.wrong + " wrong" + (check.firstWrong == null ? "" : ", first: " + check.firstWrong));
                }
            }
            line.append(String.format(Locale.ROOT, " cpu_s=%.1f peak_rss_mb=%d load=%s", job.cpuSeconds, job.peakRssKb / 1024,
                    KafkaSuite.load().split(" ")[0]));
            if (out != null) {
                suite.deleteTopics(out);
            }
            if (!consumeOnly && correct && suite.latencySeconds > 0) {
                line.append(latency(eps / 2));
            }
        }
        return line.toString();
    }

    private ChildJob start(String engine, String input, String output, Path state, String idSuffix) throws Exception {
        String own = System.getProperty("java.class.path");
        String cp;
        String main;
        List<String> args = new ArrayList<>();
        switch (engine) {
            case "millrace": cp = need("kafka.bench.cp.millrace"); main = "io.millrace.bench.millrace.MillraceKafkaJob"; break;
            case "flink": cp = need("kafka.bench.cp.flink"); main = "io.millrace.bench.flink.FlinkKafkaJob"; break;
            case "kafka-streams": cp = own; main = KafkaStreamsJob.class.getName(); break;
            case "broker-copy": cp = own; main = BrokerCeiling.class.getName(); args.add("copy"); break;
            case "broker-consume": cp = own; main = BrokerCeiling.class.getName(); args.add("consume"); break;
            default: throw new IllegalArgumentException("unknown engine " + engine);
        }
        String id = "bench-" + engine + "-" + part.id() + "-" + idSuffix;
        args.addAll(Arrays.asList(KafkaJob.args(suite.broker.bootstrapServers(), input, output, part, suite.parallelism, state, id, suite.records)));
        return new ChildJob(suite.jvm, cp, main, args, state.resolve("job.log"));
    }

    private static String need(String property) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            throw new IllegalStateException("system property " + property + " (the engine's class path) is not set: run through ./millrace-bench --suite kafka");
        }
        return v;
    }

    KafkaConsumer<byte[], byte[]> consumer(String topic) {
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, suite.broker.bootstrapServers());
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> tps = new ArrayList<>();
        for (int p = 0; p < KafkaSuite.PARTITIONS; p++) {
            tps.add(new TopicPartition(topic, p));
        }
        consumer.assign(tps);
        consumer.seekToBeginning(tps);
        return consumer;
    }

    /** The paced run: returns the latency fields of the ROUND line. */
    private String latency(double rate) throws Exception {
        String in = suite.nextTopic("lat-in-" + engine + "-" + part.id());
        String out = suite.nextTopic("lat-out-" + engine + "-" + part.id());
        Path state = Files.createDirectories(suite.work.resolve("run-" + suite.runNumber + "-" + engine + "-latency"));
        long[] lat = new long[1 << 16];
        int n = 0;
        Map<Long, Integer> windowResults = new HashMap<>();
        try (ChildJob job = start(engine, in, out, state, "l" + suite.runNumber);
                KafkaConsumer<byte[], byte[]> consumer = consumer(out)) {
            long deadline = System.currentTimeMillis() + 120_000;
            while (job.startedMillis() == 0) {
                job.checkAlive(engine);
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException(engine + " did not start its latency job within 120 s");
                }
                Thread.sleep(10);
            }
            // untimed until the engine has caught up with what was sent while it started: at least 5 s, and the latest
            // output at most 2.5 s behind its input (at most 60 s in all)
            long warmFrom = System.nanoTime();
            java.util.concurrent.atomic.AtomicLong lastLatency = new java.util.concurrent.atomic.AtomicLong(Long.MAX_VALUE);
            PacedLoad load = new PacedLoad(suite.broker.bootstrapServers(), in, KafkaSuite.PARTITIONS, rate, suite.latencySeconds, () -> {
                long warm = System.nanoTime() - warmFrom;
                return warm >= 60_000_000_000L || warm >= 5_000_000_000L && lastLatency.get() < 2_500_000_000L;
            });
            Thread producer = new Thread(load, "paced-load");
            producer.start();
            long timedSeen = 0;
            long finish = Long.MAX_VALUE;
            while (true) {
                job.checkAlive(engine);
                if (load.failure != null) {
                    throw new IllegalStateException("the latency run's producer failed", load.failure);
                }
                if (!load.done && System.currentTimeMillis() > deadline + 60_000 && load.timedFrom == Long.MAX_VALUE) {
                    throw new IllegalStateException(engine + " wrote nothing in its latency run within 180 s");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(20))) {
                    long now = System.nanoTime();
                    long from = load.timedFrom;
                    long until = load.timedUntil;
                    long t;
                    if (part == Part.PASSTHROUGH) {
                        t = Readings.trailingNumber(r.value());
                    } else {
                        long ws = Readings.leadingNumber(r.value());
                        Long closed = load.closedAt.get(ws);
                        t = closed == null ? -1 : closed;
                        if (t >= from && t < until) {
                            windowResults.merge(ws, 1, Integer::sum);
                        }
                    }
                    if (t > 0) {
                        lastLatency.set(now - t);
                    }
                    if (t >= from && t < until) {
                        if (n == lat.length) {
                            lat = Arrays.copyOf(lat, n * 2);
                        }
                        lat[n++] = now - t;
                        timedSeen++;
                    }
                }
                if (load.done) {
                    if (finish == Long.MAX_VALUE) {
                        producer.join();
                        finish = System.currentTimeMillis() + 60_000;
                    }
                    if (complete(load, timedSeen, windowResults) || System.currentTimeMillis() > finish) {
                        break;
                    }
                }
            }
            job.stop();
            long expected = part == Part.PASSTHROUGH ? load.timedSent : expectedWindowResults(load);
            Arrays.sort(lat, 0, n);
            suite.deleteTopics(in, out);
            return String.format(Locale.ROOT, " latency_rate=%.0f p50_ms=%.1f p99_ms=%.1f max_ms=%.1f timed=%d/%d%s", rate,
                    pct(lat, n, 0.50), pct(lat, n, 0.99), n == 0 ? Double.NaN : lat[n - 1] / 1e6, timedSeen, expected,
                    part == Part.COUNT ? " windows=" + windowResults.size() : "");
        }
    }

    private boolean complete(PacedLoad load, long timedSeen, Map<Long, Integer> windowResults) {
        if (part == Part.PASSTHROUGH) {
            return timedSeen >= load.timedSent;
        }
        return windowResults.values().stream().mapToLong(Integer::longValue).sum() >= expectedWindowResults(load);
    }

    private static long expectedWindowResults(PacedLoad load) {
        long sum = 0;
        for (Map.Entry<Long, Long> e : load.closedAt.entrySet()) {
            if (e.getValue() >= load.timedFrom && e.getValue() < load.timedUntil) {
                sum += load.machines.get(e.getKey()).cardinality();
            }
        }
        return sum;
    }

    private static double pct(long[] sorted, int n, double q) {
        if (n == 0) {
            return Double.NaN;
        }
        return sorted[Math.min(n - 1, (int) Math.ceil(q * n) - 1)] / 1e6;
    }
}
