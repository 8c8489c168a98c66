package io.millrace.sql.runtime;

import io.millrace.api.functions.PackedAccumulator;

/**
 * The accumulator of all aggregate calls of a window aggregation: {@link AggregateCall#width()} {@code long}s per
 * call, in order. Numbers only, so windows store it packed in their slice tables.
 */
public final class SqlAccumulator implements PackedAccumulator, java.io.Serializable {
    private static final long serialVersionUID = 1L;

    final long[] slots;

    SqlAccumulator(int longs) {
        this.slots = new long[longs];
    }

    @Override
    public int packedLongs() {
        return slots.length;
    }

    @Override
    public void packInto(long[] target, int offset) {
        System.arraycopy(slots, 0, target, offset, slots.length);
    }

    @Override
    public void unpackFrom(long[] source, int offset) {
        System.arraycopy(source, offset, slots, 0, slots.length);
    }
}
