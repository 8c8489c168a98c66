package io.millrace.bench.workload.handwritten;

import io.millrace.bench.workload.Bid;
import io.millrace.bench.workload.Rows;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The second step of q5 and q7: each window thread offers its candidate for a window (the hottest auction, the
 * highest bid among its keys) and tells how far its watermark has come; once every thread is past a window's end,
 * the best candidate is the window's result. Under a lock: a few calls per window and per batch.
 */
final class WindowMerge {
    private final int workers;
    private final Results results;
    private final TreeMap<Long, Object> pending = new TreeMap<>();
    private final Map<WindowWorker, Long> watermarks = new IdentityHashMap<>();

    WindowMerge(int workers, Results results) {
        this.workers = workers;
        this.results = results;
    }

    synchronized void offer(long end, Object candidate) {
        pending.merge(end, candidate, WindowMerge::better);
    }

    synchronized void advance(WindowWorker worker, long watermark) {
        watermarks.put(worker, watermark);
        if (watermarks.size() < workers) {
            return;
        }
        long min = Long.MAX_VALUE;
        for (long w : watermarks.values()) {
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

    private static Object better(Object a, Object b) {
        if (a instanceof Bid x) {
            return Rows.beats((Bid) b, x) ? b : a;
        }
        Rows.AuctionCount x = (Rows.AuctionCount) a;
        Rows.AuctionCount y = (Rows.AuctionCount) b;
        return Rows.hotter(y.count(), y.auction(), x.count(), x.auction()) ? y : x;
    }
}
