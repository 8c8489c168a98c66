package io.millrace.runtime.window;

import io.millrace.api.functions.KeySelector;

/**
 * What a {@link LocalWindowAggregator} sends through the keyed exchange in place of the records of one key and
 * one slice: the key, the records folded in arrival order (the reduced record, or the aggregate function's
 * accumulator), and how many records that is (a late partial counts as that many late records). Its timestamp
 * on the edge lies in the slice. The window operator that receives it owns the
 * partial from then on and may fold other partials into it.
 *
 * <p>It also carries the key's {@code hashCode} and, when the key is a {@link Long} ({@code numeric}), its value
 * ({@code number}; 0 otherwise): the window operator runs on another thread, where the key object made by the
 * sender is out of cache, and finds the key's accumulator from these without loading it.
 *
 * <p>An accumulator that is a {@link io.millrace.api.functions.PackedAccumulator} of one or two longs travels as
 * its numbers alone ({@code packedWidth} 1 or 2, the numbers in {@code packed0} and {@code packed1}, {@code partial}
 * null; {@code packedWidth} 0 when the accumulator travels as an object): a window operator that keeps its
 * accumulators packed copies or merges the numbers, and one that keeps objects makes its own instance from them
 * ({@link #accumulator}).
 */
record PartialAggregate(Object key, int hash, boolean numeric, long number, Object partial, int records, int packedWidth,
        long packed0, long packed1) {

    /** The most longs a partial carries packed. */
    static final int MAX_PACKED = 2;

    /** A partial whose accumulator travels as an object only. */
    PartialAggregate(Object key, int hash, boolean numeric, long number, Object partial, int records) {
        this(key, hash, numeric, number, partial, records, 0, 0L, 0L);
    }

    /**
     * The folded records: {@code partial}, or, when it travels packed, a new instance from {@code packing} (the
     * receiver's, on the receiver's thread) set from the numbers ({@link #unpackInto}).
     */
    Object accumulator(Packing packing, long[] numbers) {
        return packedWidth == 0 ? partial : unpackInto(packing, numbers, packing.newInstance());
    }

    /**
     * {@code into} set from the packed numbers through {@code packing}; {@code numbers} ({@link #MAX_PACKED} long)
     * is the receiver's scratch for them.
     */
    Object unpackInto(Packing packing, long[] numbers, Object into) {
        copyPacked(numbers, 0);
        return packing.unpack(numbers, 0, into);
    }

    /** Whether the accumulator travels as {@code width} numbers. */
    boolean packedAs(int width) {
        return packedWidth == width;
    }

    /** Copies the packed numbers into {@code slots} from {@code offset} ({@link #packedWidth} of them). */
    void copyPacked(long[] slots, int offset) {
        slots[offset] = packed0;
        if (packedWidth == 2) {
            slots[offset + 1] = packed1;
        }
    }

    /** Routes a partial by its key: to the same key group, hence subtask, as the records it folds. */
    static final KeySelector<Object, Object> BY_KEY = new ByKey();

    private static final class ByKey implements KeySelector<Object, Object> {
        private static final long serialVersionUID = 1L;

        @Override
        public Object getKey(Object value) {
            return ((PartialAggregate) value).key();
        }

        /** One instance per JVM, also after a copy by serialization. */
        private Object readResolve() {
            return BY_KEY;
        }
    }
}
