package io.millrace.verify;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.generator.GeneratorSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A seeded random input in roughly increasing event time: most records trail the highest timestamp so far
 * by at most {@code bound} ms (never late under a watermark of bounded out-of-orderness {@code bound}), and
 * with probability {@code beyondShare} a record trails it by more (it may be late, depending on timing).
 *
 * <p>Why "within the bound" is never late: a source split's watermark is at most (highest timestamp its
 * earlier records had) - bound - 1, watermarks travel behind the records of the same channel, and an
 * operator's watermark is the minimum over its channels. So at the window operator the watermark is below
 * {@code maxBefore(i) - bound}, which is at most the record's timestamp.
 */
final class DisorderedInput {
    final List<Event> events;
    final long bound;
    /** maxBefore[i]: the highest timestamp among events 0..i-1, or Long.MIN_VALUE for the first. */
    final long[] maxBefore;

    private DisorderedInput(List<Event> events, long bound) {
        this.events = events;
        this.bound = bound;
        this.maxBefore = new long[events.size()];
        long max = Long.MIN_VALUE;
        for (int i = 0; i < events.size(); i++) {
            maxBefore[i] = max;
            max = Math.max(max, events.get(i).ts());
        }
    }

    /**
     * @param n records
     * @param keys distinct keys
     * @param bound watermark bound in ms
     * @param beyondShare share of records further behind than the bound
     */
    static DisorderedInput generate(Random random, int n, int keys, long bound, double beyondShare) {
        List<Event> events = new ArrayList<>(n);
        long progress = 1_000 + random.nextInt(1_000);
        int maxStep = 1 + random.nextInt(6);
        long max = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            progress += random.nextInt(maxStep + 1);
            long ts;
            if (random.nextDouble() < beyondShare && max != Long.MIN_VALUE) {
                ts = max - bound - 1 - random.nextInt(random.nextBoolean() ? 300 : 6_000);
            } else {
                long floor = max == Long.MIN_VALUE ? progress : max - bound;
                ts = Math.max(floor, progress - random.nextInt((int) bound + 1));
            }
            max = Math.max(max, ts);
            events.add(new Event(i, random.nextInt(keys), ts, random.nextInt(100)));
        }
        return new DisorderedInput(events, bound);
    }

    /** Whether event {@code id} can never be late (it trails no earlier record by more than the bound). */
    boolean withinBound(int id) {
        return events.get(id).ts() >= maxBefore[id] - bound;
    }

    /**
     * Whether a record may have been too late for a window whose state is removed once the watermark
     * reaches {@code cleanupTime}: the watermark it met was at most {@code maxBefore - bound - 1}.
     */
    boolean couldMiss(int id, long cleanupTime) {
        return maxBefore[id] != Long.MIN_VALUE && cleanupTime <= maxBefore[id] - bound - 1;
    }

    /**
     * The events with bounded-out-of-orderness watermarks, in contiguous ranges over {@code parallelism}
     * subtasks: through a {@link GeneratorSource} (512 records per poll) or, with {@code maxPoll > 0}, a
     * {@link ListSource} whose watermarks advance every few records.
     */
    DataStream<Event> source(Pipeline pipeline, int parallelism, int maxPoll) {
        List<Event> all = events;
        WatermarkStrategy<Event> watermarks = WatermarkStrategy.boundedOutOfOrderness(Duration.ofMillis(bound));
        if (maxPoll > 0) {
            return pipeline.fromSource(new ListSource<>(all, Event::ts, maxPoll), watermarks, "events").parallelism(parallelism);
        }
        GeneratorSource<Event> source = GeneratorSource.builder(i -> all.get((int) i))
                .count(all.size())
                .timestamps(i -> all.get((int) i).ts())
                .build();
        return pipeline.fromSource(source, watermarks, "events").parallelism(parallelism);
    }
}
