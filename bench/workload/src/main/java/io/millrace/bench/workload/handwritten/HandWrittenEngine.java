package io.millrace.bench.workload.handwritten;

import io.millrace.bench.workload.BenchDriver;
import io.millrace.bench.workload.BenchOptions;
import io.millrace.bench.workload.Bid;
import io.millrace.bench.workload.Engine;
import io.millrace.bench.workload.Input;
import io.millrace.bench.workload.Query;
import io.millrace.bench.workload.Rows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Consumer;

/**
 * The yardstick of issue 5: q0, q1, q2, q5, q7 and sliding as a hand-written pipeline with the engines' generator
 * and parallelism, a reference-passing hash exchange (batches of references through single-producer rings) and
 * sliced windows (per slice, primitive tables from key to accumulator), and nothing else: no checkpoints, no
 * operators, no user-function calls, no serialization. The same plan as the engines' queries, the second step of
 * q5 (the hottest auction of the window) taken from one candidate per window thread instead of one record per key;
 * q7 (one window over all bids, pre-aggregated where the bids are made) as each source thread's highest bid per
 * window merged once every source is past the window's end: no exchange at all.
 * Results are counted and timed by the same {@link io.millrace.bench.workload.SinkTally} as the engines' sinks.
 */
public final class HandWrittenEngine implements Engine {
    /** The queries written by hand. */
    public static final EnumSet<Query> QUERIES = EnumSet.of(Query.Q0, Query.Q1, Query.Q2, Query.Q5, Query.Q7, Query.SLIDING);
    private final Consumer<Object> collector;

    public HandWrittenEngine() {
        this(null);
    }

    /** Results also handed to {@code collector} (thread-safe), for tests. */
    public HandWrittenEngine(Consumer<Object> collector) {
        this.collector = collector;
    }

    public static void main(String[] args) throws Exception {
        String refused = refusal(BenchOptions.parse(args));
        if (refused != null) {
            System.err.println(refused);
            System.exit(3);
        }
        BenchDriver.main(new HandWrittenEngine(), args);
    }

    /** Why these options cannot run by hand, or null. */
    static String refusal(BenchOptions o) {
        if (!QUERIES.contains(o.query)) {
            String names = QUERIES.stream().map(Query::id).reduce((a, b) -> a + ", " + b).orElse("");
            return "handwritten: " + o.query.id() + " is not written by hand (only " + names + ")";
        }
        if (!o.backend.equals("heap")) {
            return "handwritten: keeps its windows in its own tables; --backend " + o.backend + " does not apply (heap only)";
        }
        return null;
    }

    @Override
    public String name() {
        return "handwritten";
    }

    @Override
    public void run(BenchOptions options, Input input, double ratePerSecond, Path checkpointDir) throws Exception {
        Query q = options.query;
        String refused = refusal(options);
        if (refused != null) {
            throw new IllegalArgumentException(refused);
        }
        int p = options.parallelism;
        long range = input.count() / p;
        long origin = System.nanoTime();
        double perSource = ratePerSecond / p;
        List<Thread> threads = new ArrayList<>();
        WindowWorker[] workers = null;
        WindowMerge merge = switch (q) {
            case Q5 -> new WindowMerge(p, (a, b) -> hotter((Rows.AuctionCount) b, (Rows.AuctionCount) a) ? b : a, results());
            case Q7 -> new WindowMerge(p, (a, b) -> Rows.beats((Bid) b, (Bid) a) ? b : a, results());
            default -> null;
        };
        if (q == Query.Q5 || q == Query.SLIDING) {
            workers = new WindowWorker[p];
            for (int w = 0; w < p; w++) {
                workers[w] = q == Query.Q5 ? new WindowWorker.HotItems(p, merge) : new WindowWorker.SlidingAverage(p, results());
                threads.add(new Thread(workers[w], "handwritten-" + q.id() + "-window-" + w));
            }
        }
        List<SourceWorker> sources = new ArrayList<>();
        for (int k = 0; k < p; k++) {
            Channel[] outputs = null;
            if (workers != null) {
                outputs = new Channel[p];
                for (int w = 0; w < p; w++) {
                    outputs[w] = workers[w].input(k);
                }
            }
            SourceWorker source = new SourceWorker(q, input, k * range, (k + 1) * range, perSource, origin, outputs,
                    workers == null && q != Query.Q7 ? results() : null, q == Query.Q7 ? merge : null);
            sources.add(source);
            threads.add(new Thread(source, "handwritten-" + q.id() + "-source-" + k));
        }
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        for (Thread t : threads) {
            t.setUncaughtExceptionHandler((thread, e) -> {
                failure.compareAndSet(null, e);
                threads.forEach(Thread::interrupt); // the others may wait on a channel the failed one no longer serves
            });
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("handwritten " + q.id() + " failed: " + failure.get(), failure.get());
        }
        long late = sources.stream().mapToLong(s -> s.late).sum();
        if (workers != null) {
            for (WindowWorker w : workers) {
                late += w.late;
            }
        }
        if (late > 0) {
            throw new IllegalStateException("handwritten: " + late + " records came after their windows fired");
        }
    }

    private static boolean hotter(Rows.AuctionCount x, Rows.AuctionCount y) {
        return Rows.hotter(x.count(), x.auction(), y.count(), y.auction());
    }

    private Results results() {
        return collector == null ? new Results() : Results.collectingInto(collector);
    }
}
