package io.millrace.bench.millrace;

import io.millrace.api.sink.Sink;
import io.millrace.api.sink.SinkContext;
import io.millrace.api.sink.SinkWriter;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sink of {@link KeyedCounts} in the checkpoint benchmarks: remembers, per JVM, the highest sampled index, the
 * wall time of the first correct sample at or past an index, and the first wrong sample. Sink writers run on task
 * threads; the fields are read from the benchmark's main thread.
 */
final class SampleWatch implements Sink<KeyedCounts.Sample> {
    private static final long serialVersionUID = 1L;

    static final AtomicLong highestIndex = new AtomicLong(-1);
    /** Samples from this index on count as proof (set before the job starts). */
    static volatile long proofFromIndex = Long.MAX_VALUE;
    /** Wall time (epoch millis) of the first correct sample at or past {@link #proofFromIndex}, or 0. */
    static volatile long firstProofMillis;
    static volatile KeyedCounts.Sample firstProof;
    static volatile KeyedCounts.Sample firstWrong;

    @Override
    public SinkWriter<KeyedCounts.Sample> createWriter(SinkContext context) {
        return new SinkWriter<>() {
            @Override
            public void write(KeyedCounts.Sample s, long timestamp) {
                highestIndex.accumulateAndGet(s.index(), Math::max);
                if (!s.correct()) {
                    if (firstWrong == null) {
                        firstWrong = s;
                    }
                } else if (s.index() >= proofFromIndex && firstProofMillis == 0) {
                    firstProof = s;
                    firstProofMillis = System.currentTimeMillis();
                }
            }

            @Override
            public void flush(boolean endOfInput) {}

            @Override
            public void close() {}
        };
    }
}
