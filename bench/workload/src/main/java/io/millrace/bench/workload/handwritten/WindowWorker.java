package io.millrace.bench.workload.handwritten;

import io.millrace.bench.workload.Bid;
import io.millrace.bench.workload.Query;
import io.millrace.bench.workload.Reading;
import io.millrace.bench.workload.Rows;
import java.util.ArrayList;
import java.util.Arrays;

/**
 * One window thread: reads the batches of every source through its channels, keeps per slice of {@code slide} ms a
 * table from key to accumulator, and when the least of its channels' watermarks passes a window's end fires it:
 * sliding averages go to this thread's results, q5's candidates (the hottest auction of the keys this thread holds)
 * to the {@link WindowMerge}.
 */
abstract class WindowWorker implements Runnable {
    final long size;
    final long slide;
    private final Channel[] inputs;
    final Channel.Consumer consumer = new Channel.Consumer();
    private final long[] watermarks;
    private final boolean[] ended;
    final ArrayList<Slice> slices = new ArrayList<>();
    private Slice cached;
    /** The end of the next window with contents to fire; MAX_VALUE when there is none. */
    private long nextEnd = Long.MAX_VALUE;
    /** The end of the last window fired. */
    private long fired = Long.MIN_VALUE;
    private long watermark = Long.MIN_VALUE;
    /** Records that came after every window they belong to had fired: none while the watermark holds its bound. */
    long late;

    /** The keys of one slice and their accumulators, at the keys' positions. */
    abstract static class Slice {
        final long start;
        final LongTable keys = new LongTable();

        Slice(long start) {
            this.start = start;
        }
    }

    WindowWorker(long size, long slide, int sources) {
        this.size = size;
        this.slide = slide;
        this.inputs = new Channel[sources];
        this.watermarks = new long[sources];
        this.ended = new boolean[sources];
        Arrays.fill(watermarks, Long.MIN_VALUE);
    }

    Channel input(int source) {
        if (inputs[source] == null) {
            inputs[source] = new Channel(consumer);
        }
        return inputs[source];
    }

    abstract Slice newSlice(long start);

    /** Adds a record to its slice. */
    abstract void add(Slice slice, Object record);

    /** The record's event time. */
    abstract long time(Object record);

    /** Fires window {@code [end - size, end)} over {@code slices[from, to)}, its slices with contents. */
    abstract void fire(long end, int from, int to);

    /** After the windows up to {@code watermark} fired. */
    abstract void advanced(long watermark);

    @Override
    public void run() {
        consumer.thread = Thread.currentThread();
        int open = inputs.length;
        while (open > 0) {
            boolean any = false;
            for (int c = 0; c < inputs.length; c++) {
                if (ended[c]) {
                    continue;
                }
                Channel in = inputs[c];
                Channel.Batch b = in.poll();
                if (b == null) {
                    continue;
                }
                any = true;
                Object[] records = b.records;
                for (int i = 0, n = b.size; i < n; i++) {
                    Object r = records[i];
                    add(sliceOf(time(r)), r);
                }
                watermarks[c] = b.watermark;
                if (b.last) {
                    ended[c] = true;
                    open--;
                }
                in.recycle(b);
                long min = Long.MAX_VALUE;
                for (long w : watermarks) {
                    min = Math.min(min, w);
                }
                if (min > watermark) {
                    watermark = min;
                    fireUpTo(min);
                    advanced(min);
                }
            }
            if (!any && open > 0) {
                consumer.sleep(inputs, 1_000_000);
                Channel.stopIfInterrupted();
            }
        }
    }

    private Slice sliceOf(long time) {
        long start = time - Math.floorMod(time, slide);
        Slice s = cached;
        if (s != null && s.start == start) {
            return s;
        }
        int i = slices.size();
        while (i > 0 && slices.get(i - 1).start > start) {
            i--;
        }
        if (i > 0 && slices.get(i - 1).start == start) {
            s = slices.get(i - 1);
        } else {
            if (start + slide <= fired) {
                late++; // a window it belongs to has fired already
            }
            s = newSlice(start);
            slices.add(i, s);
            nextEnd = Math.min(nextEnd, Math.max(start, fired) + slide);
        }
        cached = s;
        return s;
    }

    private void fireUpTo(long wm) {
        while (nextEnd != Long.MAX_VALUE && nextEnd - 1 <= wm) {
            int from = 0;
            while (from < slices.size() && slices.get(from).start < nextEnd - size) {
                from++;
            }
            int to = from;
            while (to < slices.size() && slices.get(to).start < nextEnd) {
                to++;
            }
            if (to > from) {
                fire(nextEnd, from, to);
            }
            fired = nextEnd;
            while (!slices.isEmpty() && slices.get(0).start + size <= fired) {
                if (slices.get(0) == cached) {
                    cached = null;
                }
                slices.remove(0);
            }
            // every slice left has a window ending after the one just fired; none before its own first
            nextEnd = slices.isEmpty() ? Long.MAX_VALUE : Math.max(fired, slices.get(0).start) + slide;
        }
    }

    /** Q5: bids per auction; fires the hottest auction of this thread's keys. */
    static final class HotItems extends WindowWorker {
        private final WindowMerge merge;
        private final int mergeIndex;
        private final LongTable union = new LongTable();
        private long[] sums = new long[64];

        HotItems(int sources, WindowMerge merge) {
            super(Query.Q5_SIZE, Query.Q5_SLIDE, sources);
            this.merge = merge;
            this.mergeIndex = merge.join();
        }

        static final class Counts extends Slice {
            long[] counts = new long[64];

            Counts(long start) {
                super(start);
            }
        }

        @Override
        Slice newSlice(long start) {
            return new Counts(start);
        }

        @Override
        long time(Object record) {
            return ((Bid) record).dateTime();
        }

        @Override
        void add(Slice slice, Object record) {
            Counts s = (Counts) slice;
            int p = s.keys.findOrAdd(((Bid) record).auction());
            if (p == s.counts.length) {
                s.counts = Arrays.copyOf(s.counts, p * 2);
            }
            s.counts[p]++;
        }

        @Override
        void fire(long end, int from, int to) {
            long bestAuction = -1;
            long bestCount = -1;
            union.clear();
            for (int i = from; i < to; i++) {
                Counts s = (Counts) slices.get(i);
                for (int p = 0, n = s.keys.size(); p < n; p++) {
                    int known = union.size();
                    int q = union.findOrAdd(s.keys.key(p));
                    if (q == sums.length) {
                        sums = Arrays.copyOf(sums, q * 2);
                    }
                    sums[q] = (q == known ? 0 : sums[q]) + s.counts[p];
                }
            }
            for (int q = 0, n = union.size(); q < n; q++) {
                long auction = union.key(q);
                if (bestAuction < 0 || Rows.hotter(sums[q], auction, bestCount, bestAuction)) {
                    bestAuction = auction;
                    bestCount = sums[q];
                }
            }
            if (bestAuction >= 0) {
                merge.offer(end, new Rows.AuctionCount(bestAuction, bestCount, end));
            }
        }

        @Override
        void advanced(long watermark) {
            merge.advance(mergeIndex, watermark);
        }
    }

    /** Sliding telemetry: per sensor, the average of its readings in each 60 s window, every 5 s. */
    static final class SlidingAverage extends WindowWorker {
        private final Results results;
        private final LongTable union = new LongTable();
        private double[] sums = new double[64];
        private long[] counts = new long[64];

        SlidingAverage(int sources, Results results) {
            super(Query.SLIDING_SIZE, Query.SLIDING_SLIDE, sources);
            this.results = results;
        }

        static final class Means extends Slice {
            double[] sums = new double[64];
            long[] counts = new long[64];

            Means(long start) {
                super(start);
            }
        }

        @Override
        Slice newSlice(long start) {
            return new Means(start);
        }

        @Override
        long time(Object record) {
            return ((Reading) record).time();
        }

        @Override
        void add(Slice slice, Object record) {
            Means s = (Means) slice;
            Reading r = (Reading) record;
            int p = s.keys.findOrAdd(r.key());
            if (p == s.sums.length) {
                s.sums = Arrays.copyOf(s.sums, p * 2);
                s.counts = Arrays.copyOf(s.counts, p * 2);
            }
            s.sums[p] += r.value();
            s.counts[p]++;
        }

        @Override
        void fire(long end, int from, int to) {
            union.clear();
            for (int i = from; i < to; i++) {
                Means s = (Means) slices.get(i);
                for (int p = 0, n = s.keys.size(); p < n; p++) {
                    int known = union.size();
                    int q = union.findOrAdd(s.keys.key(p));
                    if (q == sums.length) {
                        sums = Arrays.copyOf(sums, q * 2);
                        counts = Arrays.copyOf(counts, q * 2);
                    }
                    if (q == known) {
                        sums[q] = 0;
                        counts[q] = 0;
                    }
                    sums[q] += s.sums[p];
                    counts[q] += s.counts[p];
                }
            }
            for (int q = 0, n = union.size(); q < n; q++) {
                results.accept(new Rows.SensorAverage(union.key(q), end, sums[q] / counts[q]), end - 1);
            }
            results.flush();
        }

        @Override
        void advanced(long watermark) {
            if (watermark == Long.MAX_VALUE) {
                results.flush();
            }
        }
    }
}
