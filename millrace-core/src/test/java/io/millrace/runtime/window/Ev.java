package io.millrace.runtime.window;

import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.PackedAccumulator;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.window.Window;
import java.util.ArrayList;
import java.util.List;

/** A test record: a key and a value; plus the window functions the window tests (and the backends' window contracts) share. */
public record Ev(String key, long value) implements java.io.Serializable {

    /** Sum and count of values; merge reuses its first argument. */
    public static final class SumCount implements AggregateFunction<Ev, long[], long[]> {
        @Override
        public long[] createAccumulator() {
            return new long[2];
        }

        @Override
        public long[] add(Ev value, long[] acc) {
            acc[0] += value.value();
            acc[1]++;
            return acc;
        }

        @Override
        public long[] getResult(long[] acc) {
            return acc.clone();
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            a[0] += b[0];
            a[1] += b[1];
            return a;
        }
    }

    /** Sum and count as fields, packed into two longs. */
    public static final class Sum implements PackedAccumulator, java.io.Serializable {
        long sum;
        long count;

        @Override
        public int packedLongs() {
            return 2;
        }

        @Override
        public void packInto(long[] slots, int offset) {
            slots[offset] = sum;
            slots[offset + 1] = count;
        }

        @Override
        public void unpackFrom(long[] slots, int offset) {
            sum = slots[offset];
            count = slots[offset + 1];
        }

        @Override
        public String toString() {
            return "Sum" + sum + "/" + count;
        }
    }

    /** {@link SumCount} over a {@link PackedAccumulator}: the same results ({@code long[] {sum, count}}). */
    public static final class PackedSumCount implements AggregateFunction<Ev, Sum, long[]> {
        @Override
        public Sum createAccumulator() {
            return new Sum();
        }

        @Override
        public Sum add(Ev value, Sum acc) {
            acc.sum += value.value();
            acc.count++;
            return acc;
        }

        @Override
        public long[] getResult(Sum acc) {
            return new long[] {acc.sum, acc.count};
        }

        @Override
        public Sum merge(Sum a, Sum b) {
            a.sum += b.sum;
            a.count += b.count;
            return a;
        }
    }

    /** Sum and count whose result is the accumulator itself. */
    public static final class SumItself implements AggregateFunction<Ev, Sum, Sum> {
        private final PackedSumCount sums = new PackedSumCount();

        @Override
        public Sum createAccumulator() {
            return sums.createAccumulator();
        }

        @Override
        public Sum add(Ev value, Sum acc) {
            return sums.add(value, acc);
        }

        @Override
        public Sum getResult(Sum acc) {
            return acc;
        }

        @Override
        public Sum merge(Sum a, Sum b) {
            return sums.merge(a, b);
        }
    }

    /** What a window function saw at one firing. */
    record Fired(String key, Window window, int firing, List<Object> elements) {}

    /** Records key, window, firing index and elements of every firing. */
    static final class Recording<IN> extends ProcessWindowFunction<IN, Fired, String, Window> {
        @Override
        public void process(String key, Context<Window> ctx, Iterable<IN> elements, Collector<Fired> out) {
            List<Object> all = new ArrayList<>();
            elements.forEach(all::add);
            out.collect(new Fired(key, ctx.window(), ctx.firing(), all));
        }
    }

    static Ev reduceSum(Ev a, Ev b) {
        return new Ev(a.key(), a.value() + b.value());
    }
}
