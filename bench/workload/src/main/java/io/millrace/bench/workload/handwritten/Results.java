package io.millrace.bench.workload.handwritten;

import io.millrace.bench.workload.Probe;
import io.millrace.bench.workload.SinkTally;

/**
 * Where one thread's results go: counted (and timed in latency runs) by a {@link SinkTally} as the engines' sinks
 * do, and kept in a small ring so that they are really made; or, for tests, handed to a collector.
 */
class Results {
    private final SinkTally tally = Probe.newTally();
    private final Object[] ring = new Object[64];
    private int next;

    void accept(Object row, long timestamp) {
        tally.onResult(timestamp);
        ring[next++ & 63] = row;
    }

    /** After a window's results, and at the end: the time of the last result so far (see {@link SinkTally#onFlush}). */
    void flush() {
        tally.onFlush();
    }

    /** Results handed to {@code collector} (thread-safe) besides being counted. */
    static Results collectingInto(java.util.function.Consumer<Object> collector) {
        return new Results() {
            @Override
            void accept(Object row, long timestamp) {
                super.accept(row, timestamp);
                collector.accept(row);
            }
        };
    }
}
