package io.millrace.bench.millrace;

import io.millrace.api.JobHandle;
import io.millrace.api.sink.Sink;
import io.millrace.api.sink.SinkContext;
import io.millrace.api.sink.SinkWriter;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * The sink of {@link KeyedCounts} in the checkpoint benchmarks: remembers, per JVM, the highest sampled index, the
 * wall time of the first correct sample at or past an index, and the first wrong sample. Sink writers run on task
 * threads; the fields are read from the benchmark's main thread, which waits for them with {@link #awaitIndex} and
 * {@link #awaitVerdict}: a writer wakes it when what it waits for happened, and when the job's sink closes.
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
    /** The index {@link #awaitIndex} waits for; samples below it wake nobody. */
    private static volatile long awaitedIndex = Long.MAX_VALUE;
    private static final Object CHANGED = new Object();
    /** A job that never closes its sink (it failed before opening it) is noticed by this timeout. */
    private static final long RECHECK_MILLIS = 1_000;

    @Override
    public SinkWriter<KeyedCounts.Sample> createWriter(SinkContext context) {
        return new SinkWriter<>() {
            @Override
            public void write(KeyedCounts.Sample s, long timestamp) {
                highestIndex.accumulateAndGet(s.index(), Math::max);
                boolean wake = s.index() >= awaitedIndex;
                if (!s.correct()) {
                    if (firstWrong == null) {
                        firstWrong = s;
                        wake = true;
                    }
                } else if (s.index() >= proofFromIndex && firstProofMillis == 0) {
                    firstProof = s;
                    firstProofMillis = System.currentTimeMillis();
                    wake = true;
                }
                if (wake) {
                    wakeWaiter();
                }
            }

            @Override
            public void flush(boolean endOfInput) {}

            @Override
            public void close() {
                wakeWaiter(); // the job ends: a waiter checks whether it ended first
            }
        };
    }

    private static void wakeWaiter() {
        synchronized (CHANGED) {
            CHANGED.notifyAll();
        }
    }

    /** Returns once a sample at or past {@code index} arrived; fails if the job ended first (with its failure, if any). */
    static void awaitIndex(JobHandle job, long index) throws InterruptedException {
        awaitedIndex = index;
        try {
            if (!await(job, () -> highestIndex.get() >= index)) {
                job.await(); // throws the failure
                throw new IllegalStateException("the job ended before a sample reached index " + index);
            }
        } finally {
            awaitedIndex = Long.MAX_VALUE;
        }
    }

    /** Returns once the first proof or the first wrong sample arrived, or the job ended. */
    static void awaitVerdict(JobHandle job) throws InterruptedException {
        await(job, () -> firstProofMillis != 0 || firstWrong != null);
    }

    /** True once {@code condition} holds, false if the job ended before. */
    private static boolean await(JobHandle job, BooleanSupplier condition) throws InterruptedException {
        synchronized (CHANGED) {
            while (!condition.getAsBoolean()) {
                if (job.isDone()) {
                    return condition.getAsBoolean();
                }
                CHANGED.wait(RECHECK_MILLIS);
            }
            return true;
        }
    }
}
