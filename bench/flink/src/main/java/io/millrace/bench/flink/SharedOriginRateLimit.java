package io.millrace.bench.flink;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiter;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;

/**
 * Paces each of the {@code parallelism} source subtasks at {@code rate / parallelism} records per second, counted
 * from one origin shared by the subtasks of one run (the first request of any of them), as Millrace's generator
 * does. With an origin per subtask (Flink's {@code RateLimiterStrategy.perSecond}), a subtask whose reader starts
 * later stays behind the others for the whole run, and the latency measurement (which times each event-time
 * millisecond from its first creation by any subtask) would count that offset as latency.
 *
 * <p>The benchmark runs one job at a time in a JVM (MiniCluster), so the origin is static: the limiters created
 * after the last one of a run (one per subtask) start a new origin. A request that is early completes when its
 * records are due, without blocking the reader thread.
 */
final class SharedOriginRateLimit implements RateLimiterStrategy<SourceSplit> {
    private static final long serialVersionUID = 1L;
    private static Origin current;

    private final double recordsPerSecond;

    SharedOriginRateLimit(double recordsPerSecond) {
        this.recordsPerSecond = recordsPerSecond;
    }

    @Override
    public RateLimiter<SourceSplit> createRateLimiter(int parallelism) {
        return new Limiter(recordsPerSecond / parallelism / 1e9, join(parallelism));
    }

    private static synchronized Origin join(int parallelism) {
        if (current == null || current.limiters >= parallelism) {
            current = new Origin();
        }
        current.limiters++;
        return current;
    }

    /** The start time of one run's pacing. */
    private static final class Origin {
        int limiters;
        private boolean set;
        private long nanos;

        synchronized long at(long now) {
            if (!set) {
                set = true;
                nanos = now;
            }
            return nanos;
        }
    }

    /** One subtask's limiter; Flink calls it from the reader thread only. */
    private static final class Limiter implements RateLimiter<SourceSplit> {
        private final double perNano;
        private final Origin origin;
        private long start;
        private boolean started;
        private long granted;

        Limiter(double perNano, Origin origin) {
            this.perNano = perNano;
            this.origin = origin;
        }

        @Override
        public CompletionStage<Void> acquire(int permits) {
            long now = System.nanoTime();
            if (!started) {
                started = true;
                start = origin.at(now);
            }
            granted += permits;
            long due = start + (long) (granted / perNano);
            if (due <= now) {
                return CompletableFuture.completedFuture(null);
            }
            return CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(due - now, TimeUnit.NANOSECONDS));
        }
    }
}
