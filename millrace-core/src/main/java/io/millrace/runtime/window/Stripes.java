package io.millrace.runtime.window;

import java.util.Arrays;

/**
 * Slices (or windows) ordered by id (slice start, or window end), each a stripe of {@link SliceTable}s, one
 * per owned key group, created when the group's first key arrives. Slices are few (a window's slices plus
 * those of late and early records), so a sorted array with a cache of the last stripe used is enough: a
 * record almost always lands in one of the last two slices used (in order, or a little late). Task thread
 * only, except {@link View}.
 */
final class Stripes {
    private final int groups;
    /** How new tables keep their values; null for objects. */
    private final Packing packing;
    private long[] ids = new long[16];
    private SliceTable[][] stripes = new SliceTable[16][];
    private int count;
    /** The last two stripes used, most recent first; null when unknown. */
    private long lastId;
    private SliceTable[] last;
    private long previousId;
    private SliceTable[] previous;

    Stripes(int groups) {
        this(groups, null);
    }

    /** Stripes whose tables pack their values with {@code packing} (null: objects). */
    Stripes(int groups, Packing packing) {
        this.groups = groups;
        this.packing = packing;
    }

    int count() {
        return count;
    }

    long id(int index) {
        return ids[index];
    }

    /** The tables of the stripe at {@code index}, by key group index; null elements for groups without keys. */
    SliceTable[] at(int index) {
        return stripes[index];
    }

    /** The table of {@code id} and key group index {@code group}, created when missing. */
    SliceTable table(long id, int group) {
        SliceTable[] stripe = last != null && lastId == id ? last
                : previous != null && previousId == id ? remember(id, previous) : stripe(id);
        SliceTable t = stripe[group];
        if (t == null) {
            t = new SliceTable(packing);
            stripe[group] = t;
        }
        return t;
    }

    /** The stripe of {@code id}, created when missing. */
    private SliceTable[] stripe(long id) {
        int i = Arrays.binarySearch(ids, 0, count, id);
        if (i >= 0) {
            return remember(id, stripes[i]);
        }
        i = -i - 1;
        if (count == ids.length) {
            ids = Arrays.copyOf(ids, count * 2);
            stripes = Arrays.copyOf(stripes, count * 2);
        }
        System.arraycopy(ids, i, ids, i + 1, count - i);
        System.arraycopy(stripes, i, stripes, i + 1, count - i);
        SliceTable[] stripe = new SliceTable[groups];
        ids[i] = id;
        stripes[i] = stripe;
        count++;
        return remember(id, stripe);
    }

    private SliceTable[] remember(long id, SliceTable[] stripe) {
        if (stripe != last) {
            previousId = lastId;
            previous = last;
            lastId = id;
            last = stripe;
        }
        return stripe;
    }

    /** The table of key group index {@code group} in the stripe just before {@code id}'s, or null when none. */
    SliceTable tableBefore(long id, int group) {
        int i = indexAtOrAfter(id) - 1;
        return i < 0 ? null : stripes[i][group];
    }

    /** The index of the first stripe whose id is at least {@code id}; {@link #count} when none. */
    int indexAtOrAfter(long id) {
        int i = Arrays.binarySearch(ids, 0, count, id);
        return i >= 0 ? i : -i - 1;
    }

    /** Drops the first {@code n} stripes. A {@link View} taken before keeps them. */
    void dropFirst(int n) {
        if (n == 0) {
            return;
        }
        System.arraycopy(ids, n, ids, 0, count - n);
        System.arraycopy(stripes, n, stripes, 0, count - n);
        Arrays.fill(stripes, count - n, count, null);
        count -= n;
        last = null;
        previous = null;
    }

    /** Entries over all stripes and groups. */
    long entryCount() {
        long n = 0;
        for (int i = 0; i < count; i++) {
            for (SliceTable t : stripes[i]) {
                n += t == null ? 0 : t.size();
            }
        }
        return n;
    }

    /** The stripes as they are now, for a snapshot; later adds and drops of stripes do not show in it. */
    View view() {
        return new View(Arrays.copyOf(ids, count), Arrays.copyOf(stripes, count));
    }

    /**
     * The stripes of a snapshot. Reading a key group's tables is safe on any thread as long as the task thread
     * changes no table of that group (the heap backend's copy-on-write per key group guarantees it).
     */
    record View(long[] ids, SliceTable[][] stripes) {}
}
