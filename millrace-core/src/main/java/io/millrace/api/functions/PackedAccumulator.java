package io.millrace.api.functions;

/**
 * An {@link AggregateFunction} accumulator made of numbers only (counts, sums, minima, bit sets), which a
 * window may keep as a few {@code long}s in its tables instead of as one object per key and slice.
 *
 * <p>Implement it on the accumulator class when every field is a primitive. Tumbling and sliding time
 * windows on the heap backend then store each (key, slice) accumulator packed: no object per entry for the
 * garbage collector to copy, and firing reads neighbouring numbers instead of scattered objects. The
 * aggregate function is unchanged: before calling {@code add}, {@code merge} or {@code getResult}, the
 * window unpacks the stored numbers into an accumulator instance, and packs what the call returns.
 *
 * <p>Rules, which the window relies on:
 * <ul>
 *   <li>{@link #packedLongs} is the same for every instance of the class (the first accumulator created fixes
 *   it for the window; one of another width fails the job, naming both).</li>
 *   <li>{@link #unpackFrom} overwrites every field: the instance it is called on may hold another key's
 *   numbers.</li>
 *   <li>Functions must not keep references to accumulators they are given: the window reuses instances
 *   between calls. The accumulator that {@code getResult} receives is always a fresh instance, so a result
 *   may be the accumulator itself.</li>
 *   <li>Checkpoints store accumulators unpacked, in the usual format: a job restores whether or not the
 *   class packs, and a class may start or stop implementing this interface between savepoints.</li>
 * </ul>
 */
public interface PackedAccumulator {
    /** How many longs {@link #packInto} writes; the same for every instance of the class. */
    int packedLongs();

    /** Writes this accumulator's fields to {@code slots[offset]} to {@code slots[offset + packedLongs() - 1]}. */
    void packInto(long[] slots, int offset);

    /** Sets every field of this accumulator from what {@link #packInto} wrote at {@code offset}. */
    void unpackFrom(long[] slots, int offset);
}
