package io.millrace.bench.workload.handwritten;

import io.millrace.bench.workload.Bid;
import io.millrace.bench.workload.Input;
import io.millrace.bench.workload.Query;
import io.millrace.bench.workload.Reading;
import io.millrace.bench.workload.Rows;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * One source thread: generates its share of the input with the engines' generator, at a paced rate or as fast as
 * it can. For q0-q2 it is the whole pipeline (filter, map, results); for q7 it keeps the highest bid of each open
 * window and hands it to the {@link WindowMerge} when its watermark passes the window's end; for q5 and sliding it
 * sends each record's reference to the window thread its key hashes to, batched per channel with its watermark.
 * The watermark is the newest event time less the query's out-of-orderness bound, less 1 ms.
 */
final class SourceWorker implements Runnable {
    /** A paced source sends what it has buffered when it has caught up and this long has passed since it last did. */
    private static final long PACED_FLUSH_NANOS = 1_000_000;
    private final Query query;
    private final Input input;
    private final long from;
    private final long to;
    /** Events per second of this source; 0: as fast as possible. */
    private final double rate;
    private final long originNanos;
    /** Window queries: a channel per window thread; else null. */
    private final Channel[] outputs;
    /** q0-q2: this thread's results; else null. */
    private final Results results;
    private final long delay;
    private long maxTime = Long.MIN_VALUE;
    /** q7: where the window candidates go, and this source's index there; else null. */
    private final WindowMerge merge;
    private final int mergeIndex;
    /** q7: the open windows' ends and highest bids (a bid is at most the out-of-orderness bound late, so few). */
    private long[] ends = new long[4];
    private Bid[] best = new Bid[4];
    private int open;
    /** q7: the least end of the open windows, MAX_VALUE when none. */
    private long nextEnd = Long.MAX_VALUE;
    /** q7: bids that came after their window was handed to the merge (none with the generator's bound). */
    long late;

    SourceWorker(Query query, Input input, long from, long to, double rate, long originNanos, Channel[] outputs, Results results,
            WindowMerge merge) {
        this.query = query;
        this.input = input;
        this.from = from;
        this.to = to;
        this.rate = rate;
        this.originNanos = originNanos;
        this.outputs = outputs;
        this.results = results;
        this.delay = query.watermarkDelayMs();
        this.merge = merge;
        this.mergeIndex = merge == null ? -1 : merge.join();
    }

    @Override
    public void run() {
        long s = from;
        long lastFlush = System.nanoTime();
        while (s < to) {
            long due = to;
            if (rate > 0) {
                long now = System.nanoTime();
                due = Math.min(to, from + (long) ((now - originNanos) * rate / 1e9) + 1);
                if (due <= s) {
                    if (now - lastFlush >= PACED_FLUSH_NANOS) {
                        flush(false);
                        lastFlush = now;
                    }
                    long wait = (long) ((s + 1 - from) * 1e9 / rate) - (now - originNanos);
                    LockSupport.parkNanos(Math.max(10_000, Math.min(wait, 200_000)));
                    continue;
                }
            }
            for (; s < due; s++) {
                process(input.record(s));
            }
        }
        flush(true);
    }

    private void process(Object record) {
        long time = Input.eventTime(record);
        if (time > maxTime) {
            maxTime = time;
        }
        switch (query) {
            case Q0 -> {
                if (record instanceof Bid b) {
                    results.accept(b, b.dateTime());
                }
            }
            case Q1 -> {
                if (record instanceof Bid b) {
                    results.accept(new Bid(b.auction(), b.bidder(), b.price() * 908 / 1000, b.channel(), b.url(), b.dateTime()), b.dateTime());
                }
            }
            case Q2 -> {
                if (record instanceof Bid b && b.auction() % Query.Q2_MODULUS == 0) {
                    results.accept(new Rows.AuctionPrice(b.auction(), b.price()), b.dateTime());
                }
            }
            case Q5 -> {
                if (record instanceof Bid b) {
                    send(b.auction(), b);
                }
            }
            case Q7 -> {
                long watermark = watermark();
                if (record instanceof Bid b) {
                    if (windowEnd(b) - 1 <= watermark) {
                        late++; // its window was handed over already
                    } else {
                        highest(b);
                    }
                }
                if (watermark >= nextEnd - 1) {
                    closeWindows(watermark);
                }
            }
            case SLIDING -> send(((Reading) record).key(), record);
            default -> throw new IllegalStateException(query.id());
        }
    }

    private static long windowEnd(Bid b) {
        return b.dateTime() - Math.floorMod(b.dateTime(), Query.Q7_SIZE) + Query.Q7_SIZE;
    }

    /** q7: keeps {@code b} if it is the highest bid of its window so far. */
    private void highest(Bid b) {
        long end = windowEnd(b);
        int i = 0;
        while (i < open && ends[i] != end) {
            i++;
        }
        if (i == open) {
            if (open == ends.length) {
                ends = Arrays.copyOf(ends, open * 2);
                best = Arrays.copyOf(best, open * 2);
            }
            ends[i] = end;
            best[i] = b;
            open++;
            nextEnd = Math.min(nextEnd, end);
        } else if (Rows.beats(b, best[i])) {
            best[i] = b;
        }
    }

    /** q7: offers the candidates of the windows that end at or before {@code watermark + 1}, then tells the merge. */
    private void closeWindows(long watermark) {
        long next = Long.MAX_VALUE;
        int i = 0;
        while (i < open) {
            if (ends[i] - 1 <= watermark) {
                merge.offer(ends[i], best[i]);
                open--;
                ends[i] = ends[open];
                best[i] = best[open];
                best[open] = null;
            } else {
                next = Math.min(next, ends[i]);
                i++;
            }
        }
        nextEnd = next;
        merge.advance(mergeIndex, watermark);
    }

    private void send(long key, Object record) {
        outputs[partition(key, outputs.length)].add(record, watermark());
    }

    private long watermark() {
        return maxTime == Long.MIN_VALUE ? Long.MIN_VALUE : maxTime - delay - 1;
    }

    private void flush(boolean last) {
        if (merge != null) {
            if (last) {
                closeWindows(Long.MAX_VALUE);
            }
            return;
        }
        if (outputs == null) {
            results.flush();
            return;
        }
        long wm = last ? Long.MAX_VALUE : watermark();
        for (Channel c : outputs) {
            c.send(wm, last);
        }
    }

    /** The window thread of a key: a hash independent of {@link LongTable#mix}, which places keys in tables. */
    static int partition(long key, int parallelism) {
        long h = key * 0xC2B2AE3D27D4EB4FL;
        return (int) ((h >>> 40) % parallelism);
    }
}
