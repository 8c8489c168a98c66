package io.millrace.bench.kafka;

import io.millrace.bench.workload.kafka.KafkaJob;
import io.millrace.bench.workload.kafka.KafkaJob.Part;
import io.millrace.kafka.local.LocalKafkaBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * {@code ./millrace-bench --suite kafka}: one local broker for the whole suite, an input topic pre-filled with
 * {@code --records} readings, then per round, part and engine a fresh JVM that reads the whole topic and writes the
 * result topic exactly once, timed from the job's start until a {@code read_committed} consumer has seen all of the
 * expected output (checked record by record), and a paced latency run at half that rate. Prints {@code ROUND},
 * {@code RESULT} (the median round by records per second) and {@code RATIO} lines; details go to standard error.
 *
 * <p>The engines' class paths and JVM options come from the script as system properties
 * ({@code kafka.bench.cp.millrace}, {@code kafka.bench.cp.flink}, {@code kafka.bench.jvm}).
 */
public final class KafkaSuite {
    static final int PARTITIONS = 4;

    long records = 5_000_000;
    int rounds = 1;
    int parallelism = 2;
    long latencySeconds = 20;
    List<Part> parts = List.of(Part.PASSTHROUGH, Part.COUNT);
    List<String> engines = List.of("millrace", "kafka-streams", "flink", "broker");
    List<String> jvm;
    Path work;
    LocalKafkaBroker broker;
    long base;
    int runNumber;

    public static void main(String[] args) throws Exception {
        KafkaSuite suite = new KafkaSuite();
        suite.parse(args);
        suite.run();
        System.exit(0);
    }

    private void parse(String[] args) {
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + args[i] + " needs a value");
            }
            String v = args[i + 1];
            switch (args[i]) {
                case "--records": records = parseCount(v); break;
                case "--rounds": rounds = Integer.parseInt(v); break;
                case "--parallelism": parallelism = Integer.parseInt(v); break;
                case "--latency-seconds": latencySeconds = Long.parseLong(v); break;
                case "--part": parts = v.equals("all") ? List.of(Part.PASSTHROUGH, Part.COUNT) : List.of(Part.of(v)); break;
                case "--engines": engines = List.of(v.split(",")); break;
                default: throw new IllegalArgumentException("unknown option " + args[i]
                        + " (known: --records --rounds --part passthrough|count|all --engines --parallelism --latency-seconds)");
            }
        }
        for (String e : engines) {
            if (!List.of("millrace", "kafka-streams", "flink", "broker").contains(e)) {
                throw new IllegalArgumentException("--engines: unknown engine " + e + " (known: millrace, kafka-streams, flink, broker)");
            }
        }
        if (records < 1000 || rounds < 1 || parallelism < 1) {
            throw new IllegalArgumentException("--records must be at least 1000, --rounds and --parallelism at least 1");
        }
    }

    static long parseCount(String s) {
        String t = s.replace("_", "").toUpperCase(Locale.ROOT);
        long mult = t.endsWith("M") ? 1_000_000 : t.endsWith("K") ? 1_000 : 1;
        return Long.parseLong(mult == 1 ? t : t.substring(0, t.length() - 1)) * mult;
    }

    private void run() throws Exception {
        jvm = new ArrayList<>(Arrays.asList(System.getProperty("kafka.bench.jvm", "-Xms2g -Xmx2g -XX:+UseG1GC").trim().split("\\s+")));
        String extra = System.getenv("MILLRACE_KAFKA_CHILD_OPTS");
        if (extra != null && !extra.isBlank()) {
            jvm.addAll(Arrays.asList(extra.trim().split("\\s+")));
        }
        work = Files.createTempDirectory("millrace-kafka-suite");
        log("machine: " + Runtime.getRuntime().availableProcessors() + " cores, Java " + System.getProperty("java.version")
                + ", load average " + load() + "; engine JVMs: " + String.join(" ", jvm));
        broker = LocalKafkaBroker.inTemporaryDirectory(List.of("-Xms1g", "-Xmx1g", "-XX:+UseG1GC"));
        try {
            long t0 = System.nanoTime();
            broker.start();
            log("broker on " + broker.bootstrapServers() + " in " + (System.nanoTime() - t0) / 1_000_000 + " ms, log " + broker.logFile());
            prefill();
            List<String> lines = new ArrayList<>();
            List<String> order = new ArrayList<>();
            for (String e : engines) {
                if (e.equals("broker")) {
                    order.add("broker-copy");
                    order.add("broker-consume");
                } else {
                    order.add(e);
                }
            }
            for (int round = 1; round <= rounds; round++) {
                for (Part part : parts) {
                    for (int k = 0; k < order.size(); k++) {
                        String engine = order.get((k + round - 1) % order.size());
                        if (part == Part.COUNT && engine.startsWith("broker")) {
                            continue;   // the ceiling is a copy: pass-through only
                        }
                        String line = new EngineRun(this, engine, part, round).call();
                        System.out.println(line);
                        System.out.flush();
                        lines.add(line);
                    }
                }
            }
            Report.print(lines, rounds);
        } finally {
            broker.close();
            deleteTree(work);
        }
    }

    /** The input topic: {@code records} readings, then one end record per partition. */
    private void prefill() throws Exception {
        broker.createTopic("readings", PARTITIONS);
        base = Readings.base(records, System.currentTimeMillis());
        Map<String, Object> pc = new HashMap<>();
        pc.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        pc.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        pc.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        long t0 = System.nanoTime();
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(pc, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (long i = 0; i < records; i++) {
                p.send(new ProducerRecord<>("readings", Readings.partition(i, PARTITIONS), Readings.time(base, i), Readings.key(i), Readings.value(i)));
            }
            long end = Readings.time(base, records - 1) + 3 * KafkaJob.WINDOW_MS;
            for (int part = 0; part < PARTITIONS; part++) {
                p.send(new ProducerRecord<>("readings", part, end, Readings.END_KEY.getBytes(), "-1,0".getBytes()));
            }
            p.flush();
        }
        double s = (System.nanoTime() - t0) / 1e9;
        log(String.format(Locale.ROOT, "input: %,d readings in %d partitions, event time %d.., written in %.1f s (%,.0f/s)",
                records, PARTITIONS, base, s, records / s));
    }

    String nextTopic(String what) {
        String t = what + "-" + (++runNumber);
        broker.createTopic(t, PARTITIONS);
        return t;
    }

    void deleteTopics(String... topics) {
        try (var admin = broker.admin()) {
            admin.deleteTopics(List.of(topics)).all().get();
        } catch (Exception e) {
            log("could not delete " + String.join(", ", topics) + ": " + e);
        }
    }

    static String load() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (Exception e) {
            return "?";
        }
    }

    static void log(String s) {
        System.err.println("kafka-suite: " + s);
        System.err.flush();
    }

    private static void deleteTree(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (Exception e) {
            log("could not delete " + dir + ": " + e);
        }
    }

    /** The fields of a RESULT/ROUND line, in order. */
    static Map<String, String> fields(String line) {
        Map<String, String> f = new LinkedHashMap<>();
        for (String kv : line.trim().split(" ")) {
            int eq = kv.indexOf('=');
            if (eq > 0) {
                f.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
        }
        return f;
    }
}
