package io.millrace.runtime.window;

import java.util.Arrays;

/**
 * The live slices of one key, oldest first: slice starts in ascending order and their accumulators (never null).
 * The value of the {@link SlicingWindowOperator}'s per-key state, so that a window firing reads all its slices
 * with one state lookup. A plain class for the state serializer (written field by field; the arrays may be
 * longer than {@link #size}, the rest unused). Changed in place by the task thread; the caller puts it back into
 * its state after a change.
 */
final class KeySlices {
    private static final long[] NO_STARTS = new long[0];
    private static final Object[] NO_ACCUMULATORS = new Object[0];

    private long[] starts;
    private Object[] accumulators;
    private int size;

    /** No slices; also the constructor the state serializer uses before setting the fields. */
    KeySlices() {
        starts = NO_STARTS;
        accumulators = NO_ACCUMULATORS;
    }

    int size() {
        return size;
    }

    /** The start of the {@code i}-th slice, {@code 0 <= i < size()}. */
    long start(int i) {
        return starts[i];
    }

    /** The accumulator of the {@code i}-th slice, {@code 0 <= i < size()}. */
    Object accumulator(int i) {
        return accumulators[i];
    }

    /** The index of the slice starting at {@code start}; if none, {@code -(insertion point) - 1}. */
    int indexOf(long start) {
        // records mostly go to the newest slice
        if (size > 0 && starts[size - 1] == start) {
            return size - 1;
        }
        return Arrays.binarySearch(starts, 0, size, start);
    }

    /** The index of the first slice starting at or after {@code start}; {@link #size()} when none. */
    int firstAtOrAfter(long start) {
        int i = Arrays.binarySearch(starts, 0, size, start);
        return i >= 0 ? i : -i - 1;
    }

    /** Replaces the accumulator of the {@code i}-th slice. */
    void set(int i, Object accumulator) {
        accumulators[i] = accumulator;
    }

    /** Adds a slice at {@code index}, the insertion point {@link #indexOf} reported for {@code start}. */
    void insert(int index, long start, Object accumulator) {
        if (size == starts.length) {
            int capacity = Math.max(4, size * 2);
            starts = Arrays.copyOf(starts, capacity);
            accumulators = Arrays.copyOf(accumulators, capacity);
        }
        System.arraycopy(starts, index, starts, index + 1, size - index);
        System.arraycopy(accumulators, index, accumulators, index + 1, size - index);
        starts[index] = start;
        accumulators[index] = accumulator;
        size++;
    }

    /** Removes the slices starting in {@code [from, to)}; returns whether any was removed. */
    boolean removeRange(long from, long to) {
        int first = firstAtOrAfter(from);
        int end = firstAtOrAfter(to);
        if (first >= end) {
            return false;
        }
        System.arraycopy(starts, end, starts, first, size - end);
        System.arraycopy(accumulators, end, accumulators, first, size - end);
        int removed = end - first;
        Arrays.fill(accumulators, size - removed, size, null);
        size -= removed;
        return true;
    }
}
