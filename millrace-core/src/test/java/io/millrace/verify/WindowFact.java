package io.millrace.verify;

import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessFunction;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.window.TimeWindow;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What a window result says about its window, in one shape for every window function; fields a function
 * cannot know are -1 (or null ids), and {@link #as} blanks the same fields of an expected fact.
 */
record WindowFact(int key, long start, long end, int firing, long count, long sum, long minId, List<Integer> ids) {

    /** How a window result is computed. */
    enum Mode {
        REDUCE, REDUCE_PROCESS, AGGREGATE, AGGREGATE_PROCESS, PROCESS;

        boolean seesWindow() {
            return this == REDUCE_PROCESS || this == AGGREGATE_PROCESS || this == PROCESS;
        }
    }

    /** The full fact of a window holding {@code events}. */
    static WindowFact of(int key, long start, long end, int firing, Collection<Event> events) {
        long sum = 0;
        long minId = Long.MAX_VALUE;
        List<Integer> ids = new ArrayList<>();
        for (Event e : events) {
            sum += e.value();
            minId = Math.min(minId, e.id());
            ids.add(e.id());
        }
        ids.sort(null);
        return new WindowFact(key, start, end, firing, events.size(), sum, minId, List.copyOf(ids));
    }

    /** This fact with the fields {@code mode} cannot see blanked. */
    WindowFact as(Mode mode) {
        boolean window = mode.seesWindow();
        boolean count = mode != Mode.REDUCE && mode != Mode.REDUCE_PROCESS;
        return new WindowFact(key, window ? start : -1, end, window ? firing : -1, count ? this.count : -1, sum, minId,
                mode == Mode.PROCESS ? ids : null);
    }

    @Override
    public String toString() {
        return "key " + key + " [" + start + ", " + end + ") firing " + firing + ": n=" + count + " sum=" + sum
                + " minId=" + minId + (ids == null ? "" : " ids=" + ids);
    }

    // ---- the window functions under test, one per mode ----

    /** Accumulator of {@link Totals}: mutable, merged into its first argument only. */
    static final class Acc implements java.io.Serializable {
        int key = -1;
        long count;
        long sum;
        long minId = Long.MAX_VALUE;
    }

    /** Result of {@link Totals}: an immutable copy of the accumulator. */
    record Total(int key, long count, long sum, long minId) implements java.io.Serializable {}

    /** Count, sum and smallest id, incrementally. */
    static final class Totals implements AggregateFunction<Event, Acc, Total> {
        @Override
        public Acc createAccumulator() {
            return new Acc();
        }

        @Override
        public Acc add(Event value, Acc acc) {
            acc.key = value.key();
            acc.count++;
            acc.sum += value.value();
            acc.minId = Math.min(acc.minId, value.id());
            return acc;
        }

        @Override
        public Total getResult(Acc acc) {
            return new Total(acc.key, acc.count, acc.sum, acc.minId);
        }

        @Override
        public Acc merge(Acc a, Acc b) {
            a.key = Math.max(a.key, b.key);
            a.count += b.count;
            a.sum += b.sum;
            a.minId = Math.min(a.minId, b.minId);
            return a;
        }
    }

    /** A reduced event or a total, turned into a fact whose end is the record's timestamp + 1. */
    static final class FromTimestamp extends ProcessFunction<Object, WindowFact> {
        @Override
        public void processElement(Object value, Context ctx, Collector<WindowFact> out) {
            long end = ctx.timestamp() + 1;
            if (value instanceof Event e) {
                out.collect(new WindowFact(e.key(), -1, end, -1, -1, e.value(), e.id(), null));
            } else {
                Total t = (Total) value;
                out.collect(new WindowFact(t.key(), -1, end, -1, t.count(), t.sum(), t.minId(), null));
            }
        }
    }

    /** The window function of REDUCE_PROCESS. */
    static final class ReducedInWindow extends ProcessWindowFunction<Event, WindowFact, Integer, TimeWindow> {
        @Override
        public void process(Integer key, Context<TimeWindow> ctx, Iterable<Event> elements, Collector<WindowFact> out) {
            Event e = elements.iterator().next();
            TimeWindow w = ctx.window();
            out.collect(new WindowFact(key, w.start(), w.end(), ctx.firing(), -1, e.value(), e.id(), null));
        }
    }

    /** The window function of AGGREGATE_PROCESS. */
    static final class TotalInWindow extends ProcessWindowFunction<Total, WindowFact, Integer, TimeWindow> {
        @Override
        public void process(Integer key, Context<TimeWindow> ctx, Iterable<Total> elements, Collector<WindowFact> out) {
            Total t = elements.iterator().next();
            TimeWindow w = ctx.window();
            out.collect(new WindowFact(key, w.start(), w.end(), ctx.firing(), t.count(), t.sum(), t.minId(), null));
        }
    }

    /** The window function of PROCESS: sees every record. */
    static final class AllInWindow extends ProcessWindowFunction<Event, WindowFact, Integer, TimeWindow> {
        @Override
        public void process(Integer key, Context<TimeWindow> ctx, Iterable<Event> elements, Collector<WindowFact> out) {
            List<Event> all = new ArrayList<>();
            elements.forEach(all::add);
            TimeWindow w = ctx.window();
            out.collect(of(key, w.start(), w.end(), ctx.firing(), all));
        }
    }
}
