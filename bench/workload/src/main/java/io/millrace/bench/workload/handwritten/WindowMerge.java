package io.millrace.bench.workload.handwritten;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BinaryOperator;

/**
 * The last step of q5 and q7: each thread offers its candidate for a window (q5: each window thread's hottest
 * auction; q7: each source thread's highest bid) and tells how far its watermark has come; once every thread is past
 * a window's end, the best candidate is the window's result. Under a lock: a few calls per window and per batch.
 */
final class WindowMerge {
    private final BinaryOperator<Object> better;
    private final Results results;
    private final TreeMap<Long, Object> pending = new TreeMap<>();
    /** Each offering thread's watermark, by the index {@link #join} gave it; MIN_VALUE until it tells one. */
    private final long[] watermarks;
    private int joined;

    /** {@code better}: of two candidates for one window, the better (the window's result is the best of all). */
    WindowMerge(int workers, BinaryOperator<Object> better, Results results) {
        this.better = better;
        this.results = results;
        this.watermarks = new long[workers];
        Arrays.fill(watermarks, Long.MIN_VALUE);
    }

    /** An offering thread's index for {@link #advance}. */
    synchronized int join() {
        return joined++;
    }

    synchronized void offer(long end, Object candidate) {
        pending.merge(end, candidate, better);
    }

    synchronized void advance(int worker, long watermark) {
        watermarks[worker] = watermark;
        long min = Long.MAX_VALUE;
        for (long w : watermarks) {
            min = Math.min(min, w);
        }
        boolean any = false;
        while (!pending.isEmpty() && pending.firstKey() - 1 <= min) {
            Map.Entry<Long, Object> e = pending.pollFirstEntry();
            results.accept(e.getValue(), e.getKey() - 1);
            any = true;
        }
        if (any || min == Long.MAX_VALUE) {
            results.flush();
        }
    }
}
