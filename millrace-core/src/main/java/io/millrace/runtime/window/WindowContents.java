package io.millrace.runtime.window;

import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.ReduceFunction;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * How a window keeps its records: folded by a reduce or aggregate function, or as a list. A window's
 * contents are one accumulator per slice (one per session or global window); firing combines them without
 * changing them, because overlapping windows share slices.
 */
interface WindowContents<T, ACC> {
    /** Adds a record; {@code acc} is null for the first record of a slice. May return {@code acc} itself. */
    ACC add(ACC acc, T value) throws Exception;

    /** Folds {@code other} into {@code target} (sessions merging); may modify and return {@code target}. */
    ACC merge(ACC target, ACC other) throws Exception;

    /** Emits the window made of {@code slices} (non-null accumulators, oldest first) through {@code emission}. */
    void emit(List<ACC> slices, WindowEmission emission) throws Exception;

    @SuppressWarnings({"unchecked", "rawtypes"})
    static WindowContents<Object, Object> of(ReduceFunction<?> reducer, AggregateFunction<?, ?, ?> aggregator) {
        if (reducer != null) {
            return new Reduced<>((ReduceFunction<Object>) reducer);
        }
        if (aggregator != null) {
            return new Aggregated<>((AggregateFunction<Object, Object, Object>) aggregator);
        }
        return (WindowContents) new Listed<>();
    }

    /**
     * The contents of a window fed with {@link PartialAggregate}s: a slice's first partial becomes its value, later
     * ones are merged into it ({@code reduce(stored, partial)} or {@code merge(stored, partial)}), in arrival order.
     * {@code packing}: how the aggregate function's accumulators pack (null for a reduce or objects), to make an
     * instance of a partial that travels as numbers; {@code numbers}: scratch for those numbers (one operator
     * instance's, its task thread's only).
     */
    record OfPartials(WindowContents<Object, Object> folded, Packing packing, long[] numbers) implements WindowContents<Object, Object> {
        OfPartials(WindowContents<Object, Object> folded, Packing packing) {
            this(folded, packing, new long[PartialAggregate.MAX_PACKED]);
        }

        @Override
        public Object add(Object acc, Object value) throws Exception {
            Object partial = ((PartialAggregate) value).accumulator(packing, numbers);
            return acc == null ? partial : folded.merge(acc, partial);
        }

        @Override
        public Object merge(Object target, Object other) throws Exception {
            return folded.merge(target, other);
        }

        @Override
        public void emit(List<Object> slices, WindowEmission emission) throws Exception {
            folded.emit(slices, emission);
        }
    }

    /** Folded by a reduce function; the accumulator is the reduced record. */
    record Reduced<T>(ReduceFunction<T> reducer) implements WindowContents<T, T> {
        @Override
        public T add(T acc, T value) throws Exception {
            return acc == null ? value : reducer.reduce(acc, value);
        }

        @Override
        public T merge(T target, T other) throws Exception {
            return reducer.reduce(target, other);
        }

        @Override
        public void emit(List<T> slices, WindowEmission emission) throws Exception {
            T result = slices.get(0);
            for (int i = 1; i < slices.size(); i++) {
                result = reducer.reduce(result, slices.get(i));
            }
            emission.emitValue(result);
        }
    }

    /** Folded by an aggregate function. */
    record Aggregated<T, ACC>(AggregateFunction<T, ACC, ?> aggregator) implements WindowContents<T, ACC> {
        @Override
        public ACC add(ACC acc, T value) {
            return aggregator.add(value, acc == null ? aggregator.createAccumulator() : acc);
        }

        @Override
        public ACC merge(ACC target, ACC other) {
            return aggregator.merge(target, other);
        }

        @Override
        public void emit(List<ACC> slices, WindowEmission emission) throws Exception {
            ACC acc;
            if (slices.size() == 1) {
                acc = slices.get(0);
            } else {
                acc = aggregator.createAccumulator();
                for (int i = 0; i < slices.size(); i++) {
                    acc = aggregator.merge(acc, slices.get(i));
                }
            }
            emission.emitValue(aggregator.getResult(acc));
        }
    }

    /** Every record kept, in arrival order per slice; a window sees the concatenation of its slices. */
    final class Listed<T> implements WindowContents<T, ArrayList<T>> {
        @Override
        public ArrayList<T> add(ArrayList<T> acc, T value) {
            ArrayList<T> list = acc == null ? new ArrayList<>(4) : acc;
            list.add(value);
            return list;
        }

        @Override
        public ArrayList<T> merge(ArrayList<T> target, ArrayList<T> other) {
            target.addAll(other);
            return target;
        }

        @Override
        public void emit(List<ArrayList<T>> slices, WindowEmission emission) throws Exception {
            emission.emitElements(slices.size() == 1 ? slices.get(0) : new Concatenation<>(List.copyOf(slices)));
        }
    }

    /** A read-only view of several lists one after the other. */
    final class Concatenation<T> extends AbstractList<T> {
        private final List<? extends List<T>> parts;
        private final int size;

        Concatenation(List<? extends List<T>> parts) {
            this.parts = parts;
            int n = 0;
            for (List<T> p : parts) {
                n += p.size();
            }
            this.size = n;
        }

        @Override
        public T get(int index) {
            int i = index;
            for (List<T> p : parts) {
                if (i < p.size()) {
                    return p.get(i);
                }
                i -= p.size();
            }
            throw new IndexOutOfBoundsException(index);
        }

        @Override
        public Iterator<T> iterator() {
            return parts.stream().<T>flatMap(List::stream).iterator();
        }

        @Override
        public int size() {
            return size;
        }
    }
}
