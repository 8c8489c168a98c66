package io.millrace.bench.kafka;

import io.millrace.bench.workload.kafka.KafkaJob;
import java.nio.charset.StandardCharsets;

/**
 * The suite's input: factory readings, reading {@code i} from machine {@code i % MACHINES} (key {@code M0042}), in
 * partition {@code machine % partitions}, its event time (the Kafka timestamp) {@code base + i / PER_MS} ms, its
 * value the text {@code i,celsius} (a paced run appends {@code ,sendNanos}). After the readings every partition
 * gets one {@link #END_KEY} record a minute of event time later, so that every engine's last windows close (the
 * watermark, or Kafka Streams' stream time, passes them); it is not counted in any result.
 */
final class Readings {
    static final int MACHINES = 1000;
    /** Readings per millisecond of event time: 100,000 per second. */
    static final long PER_MS = 100;
    static final String END_KEY = "~end";

    private Readings() {}

    static String machine(long i) {
        int m = (int) (i % MACHINES);
        return "M" + (char) ('0' + m / 1000) + (char) ('0' + m / 100 % 10) + (char) ('0' + m / 10 % 10) + (char) ('0' + m % 10);
    }

    static byte[] key(long i) {
        return machine(i).getBytes(StandardCharsets.US_ASCII);
    }

    static int partition(long i, int partitions) {
        return (int) (i % MACHINES % partitions);
    }

    /** A temperature in 0.01 °C steps between 60 and 100, a pure function of {@code i}. */
    static String celsius(long i) {
        long h = (i * 0x9E3779B97F4A7C15L) >>> 40;
        long c = 6000 + h % 4000;
        return c / 100 + "." + (c % 100 < 10 ? "0" : "") + c % 100;
    }

    static byte[] value(long i) {
        return (i + "," + celsius(i)).getBytes(StandardCharsets.US_ASCII);
    }

    static long time(long base, long i) {
        return base + i / PER_MS;
    }

    /** The machine number of a key {@code M0042}, or -1 for another key. */
    static int machineOf(byte[] key) {
        if (key == null || key.length != 5 || key[0] != 'M') {
            return -1;
        }
        int m = 0;
        for (int k = 1; k < 5; k++) {
            int d = key[k] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            m = m * 10 + d;
        }
        return m < MACHINES ? m : -1;
    }

    /** The leading number of a value {@code i,...}, or -1. */
    static long leadingNumber(byte[] value) {
        long n = 0;
        int k = 0;
        for (; k < value.length && value[k] != ','; k++) {
            int d = value[k] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            n = n * 10 + d;
        }
        return k == 0 ? -1 : n;
    }

    /** The number after the last comma of a value, or -1. */
    static long trailingNumber(byte[] value) {
        int k = value.length - 1;
        while (k >= 0 && value[k] != ',') {
            k--;
        }
        long n = 0;
        for (int j = k + 1; j < value.length; j++) {
            int d = value[j] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            n = n * 10 + d;
        }
        return k < 0 || k == value.length - 1 ? -1 : n;
    }

    /** The first event time of a run of {@code records} readings that all lie before now, on a window boundary. */
    static long base(long records, long nowMillis) {
        long span = records / PER_MS + 1;
        return KafkaJob.windowStart(nowMillis - span - 2 * KafkaJob.WINDOW_MS);
    }
}
