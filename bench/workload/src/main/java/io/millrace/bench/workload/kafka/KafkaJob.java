package io.millrace.bench.workload.kafka;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * What every engine's job of the Kafka suite is told, and what it tells the suite: the arguments of its {@code main}
 * ({@code --bootstrap B --input T --output T --part passthrough|count --parallelism P --state-dir D --id X}) and
 * the line it prints on standard output when it starts its job. Engine-neutral: the Millrace, Flink and Kafka
 * Streams jobs and the broker's own copy loop all parse their arguments here.
 *
 * <p>The records: key = the machine's name ({@code M0042}, UTF-8), value = UTF-8 text that a job never looks at,
 * Kafka timestamp = the reading's event time. A pass-through job writes each record's key, value and timestamp
 * unchanged to the output topic; a count job writes one record per machine and 10 s tumbling event-time window of
 * the record timestamps, once the window is complete: key = the machine, value = {@link #countValue}.
 */
public final class KafkaJob {
    /** The count's tumbling window, ms of event time. */
    public static final long WINDOW_MS = 10_000;
    /** Printed with the epoch millis at which the job is handed to its engine. */
    public static final String STARTED = "KAFKA_JOB_STARTED";
    /** Printed by a job that ends by itself (the consume-only ceiling), with the epoch millis it ended. */
    public static final String DONE = "KAFKA_JOB_DONE";

    public enum Part {
        PASSTHROUGH, COUNT;

        public static Part of(String s) {
            switch (s) {
                case "passthrough": return PASSTHROUGH;
                case "count": return COUNT;
                default: throw new IllegalArgumentException("--part must be passthrough or count, was " + s);
            }
        }

        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public final String bootstrap;
    public final String input;
    public final String output;
    public final Part part;
    public final int parallelism;
    public final Path stateDir;
    /** Unique to this run: application id, transactional id prefix, group id. */
    public final String id;
    /** Records the job must read before it ends by itself (consume-only ceiling); 0: run until killed. */
    public final long records;

    private KafkaJob(String bootstrap, String input, String output, Part part, int parallelism, Path stateDir, String id, long records) {
        this.bootstrap = bootstrap;
        this.input = input;
        this.output = output;
        this.part = part;
        this.parallelism = parallelism;
        this.stateDir = stateDir;
        this.id = id;
        this.records = records;
    }

    public static KafkaJob parse(String[] args) {
        String bootstrap = null, input = null, output = null, id = null;
        Part part = Part.PASSTHROUGH;
        int parallelism = 2;
        Path stateDir = null;
        long records = 0;
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + args[i] + " needs a value");
            }
            String v = args[i + 1];
            switch (args[i]) {
                case "--bootstrap": bootstrap = v; break;
                case "--input": input = v; break;
                case "--output": output = v; break;
                case "--part": part = Part.of(v); break;
                case "--parallelism": parallelism = Integer.parseInt(v); break;
                case "--state-dir": stateDir = Path.of(v); break;
                case "--id": id = v; break;
                case "--records": records = Long.parseLong(v); break;
                default: throw new IllegalArgumentException("unknown option " + args[i]
                        + " (known: --bootstrap --input --output --part --parallelism --state-dir --id --records)");
            }
        }
        if (bootstrap == null || input == null || id == null || stateDir == null) {
            throw new IllegalArgumentException("--bootstrap, --input, --id and --state-dir are required");
        }
        return new KafkaJob(bootstrap, input, output, part, parallelism, stateDir, id, records);
    }

    /** The argument list that {@link #parse} reads back. */
    public static String[] args(String bootstrap, String input, String output, Part part, int parallelism, Path stateDir, String id, long records) {
        return new String[] {"--bootstrap", bootstrap, "--input", input, "--output", output == null ? "-" : output, "--part", part.id(),
                "--parallelism", String.valueOf(parallelism), "--state-dir", stateDir.toString(), "--id", id, "--records", String.valueOf(records)};
    }

    /** Prints {@link #STARTED} and the time: call just before the job is handed to the engine. */
    public static void started() {
        System.out.println(STARTED + " " + System.currentTimeMillis());
        System.out.flush();
    }

    /** The count job's value for a window: {@code windowStart,count}. */
    public static byte[] countValue(long windowStart, long count) {
        return (windowStart + "," + count).getBytes(StandardCharsets.UTF_8);
    }

    /** The start of the window holding event time {@code t}. */
    public static long windowStart(long t) {
        return t - Math.floorMod(t, WINDOW_MS);
    }
}
