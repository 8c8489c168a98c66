package io.millrace.runtime.window;

import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.PackedAccumulator;

/**
 * How a {@link SliceTable} keeps the {@link PackedAccumulator}s of one aggregate function: {@link #width} longs
 * per entry. Creating instances goes through the function, on the task thread only; a snapshot writer unpacks
 * into an instance made for it on the task thread ({@link #newInstance}).
 */
final class Packing {
    private final AggregateFunction<?, ?, ?> function;
    private final Class<?> firstClass;
    final int width;

    private Packing(AggregateFunction<?, ?, ?> function, Class<?> firstClass, int width) {
        this.function = function;
        this.firstClass = firstClass;
        this.width = width;
    }

    /** The packing of {@code function}'s accumulators, or null when they do not implement {@link PackedAccumulator}. */
    static Packing of(AggregateFunction<?, ?, ?> function) {
        if (function == null || !(function.createAccumulator() instanceof PackedAccumulator first)) {
            return null;
        }
        int width = first.packedLongs();
        if (width < 1) {
            throw new IllegalStateException(first.getClass().getName() + ".packedLongs() returned " + width
                    + "; a packed accumulator needs at least one long");
        }
        return new Packing(function, first.getClass(), width);
    }

    /** A new accumulator from {@code createAccumulator}; task thread only. */
    Object newInstance() {
        return function.createAccumulator();
    }

    /** Writes {@code acc} at {@code offset}; fails naming the class when it is not packed {@link #width} wide. */
    void pack(Object acc, long[] slots, int offset) {
        // the first accumulator's class was checked when this packing was made; any other is checked here
        if (acc != null && acc.getClass() == firstClass) {
            ((PackedAccumulator) acc).packInto(slots, offset);
            return;
        }
        if (!(acc instanceof PackedAccumulator packed) || packed.packedLongs() != width) {
            throw new IllegalStateException("aggregate function " + function.getClass().getName()
                    + " returned an accumulator of " + (acc == null ? "null" : acc.getClass().getName())
                    + (acc instanceof PackedAccumulator p ? " packing " + p.packedLongs() + " longs" : "")
                    + ", but its first accumulator, a " + firstClass.getName() + ", packs " + width
                    + " longs: every accumulator of a window must pack the same way");
        }
        packed.packInto(slots, offset);
    }

    /** {@code into}, set from the numbers at {@code offset}. */
    Object unpack(long[] slots, int offset, Object into) {
        ((PackedAccumulator) into).unpackFrom(slots, offset);
        return into;
    }
}
