package io.millrace.bench.kafka;

import io.millrace.bench.workload.kafka.KafkaJob;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Checks an engine's output against what the input asks for, record by record as a {@code read_committed} consumer
 * sees it: pass-through, every reading once, per machine in the order of the input; count, every (machine, window)
 * once with its exact count. {@link #complete} when everything expected was seen; {@link #wrong} counts records
 * that are duplicates, out of order, unexpected or of a wrong count (any of them makes the run incorrect).
 */
abstract class OutputCheck {
    long expected;
    long matched;
    long wrong;
    String firstWrong;

    abstract void accept(ConsumerRecord<byte[], byte[]> r);

    boolean complete() {
        return matched == expected;
    }

    boolean correct() {
        return complete() && wrong == 0;
    }

    void wrong(ConsumerRecord<byte[], byte[]> r, String why) {
        if (wrong++ == 0) {
            firstWrong = why + ": key " + (r.key() == null ? "null" : new String(r.key(), StandardCharsets.UTF_8)) + " value "
                    + (r.value() == null ? "null" : new String(r.value(), StandardCharsets.UTF_8)) + " at " + r.topic() + "/" + r.partition() + "@" + r.offset();
        }
    }

    /** Readings {@code 0..records-1} each once, per machine in increasing order. */
    static final class PassThrough extends OutputCheck {
        private final long[] next = new long[Readings.MACHINES];

        PassThrough(long records) {
            expected = records;
            for (int m = 0; m < next.length; m++) {
                next[m] = m;
            }
        }

        @Override
        void accept(ConsumerRecord<byte[], byte[]> r) {
            if (r.key() != null && new String(r.key(), StandardCharsets.UTF_8).equals(Readings.END_KEY)) {
                return;
            }
            int m = Readings.machineOf(r.key());
            long i = r.value() == null ? -1 : Readings.leadingNumber(r.value());
            if (m < 0 || i < 0 || i % Readings.MACHINES != m) {
                wrong(r, "not a reading of the input");
            } else if (i != next[m]) {
                wrong(r, i < next[m] ? "duplicate or out of order (expected " + next[m] + ")" : "gap (expected " + next[m] + ")");
            } else if (i >= expected) {
                wrong(r, "beyond the input");
            } else {
                next[m] += Readings.MACHINES;
                matched++;
            }
        }
    }

    /** One record per machine and window with the number of readings of that machine in that window. */
    static final class Counts extends OutputCheck {
        private final long base;
        private final int windows;
        private final long[] counts;
        private final boolean[] seen;

        Counts(long records, long base) {
            this.base = base;
            this.windows = (int) ((Readings.time(base, records - 1) - base) / KafkaJob.WINDOW_MS + 1);
            this.counts = new long[windows * Readings.MACHINES];
            this.seen = new boolean[counts.length];
            for (long i = 0; i < records; i++) {
                int w = (int) ((Readings.time(base, i) - base) / KafkaJob.WINDOW_MS);
                counts[w * Readings.MACHINES + (int) (i % Readings.MACHINES)]++;
            }
            for (long c : counts) {
                if (c > 0) {
                    expected++;
                }
            }
        }

        @Override
        void accept(ConsumerRecord<byte[], byte[]> r) {
            int m = Readings.machineOf(r.key());
            if (m < 0 || r.value() == null) {
                wrong(r, "not a machine's count");
                return;
            }
            long start = Readings.leadingNumber(r.value());
            long n = Readings.trailingNumber(r.value());
            long w = start < base ? -1 : (start - base) / KafkaJob.WINDOW_MS;
            if (start < 0 || n < 0 || w < 0 || w >= windows || (start - base) % KafkaJob.WINDOW_MS != 0) {
                wrong(r, "not a window of the input");
                return;
            }
            int slot = (int) w * Readings.MACHINES + m;
            if (seen[slot]) {
                wrong(r, "duplicate window");
            } else if (counts[slot] != n) {
                seen[slot] = true;
                wrong(r, "wrong count (expected " + counts[slot] + ")");
            } else {
                seen[slot] = true;
                matched++;
            }
        }
    }
}
