package io.millrace.runtime.window;

import io.millrace.api.window.TimeWindow;
import io.millrace.runtime.state.ReadAhead;
import java.util.ArrayList;
import java.util.Arrays;

/**
 * The firing of a sliced window by the ranges of its tables' numeric keys, for a {@link SliceTableWindowOperator}:
 * keys that grow with time mostly live in one slice's table, which the tables' ranges tell without a lookup.
 * Holds the scratch arrays it reuses from one firing to the next. Task thread only.
 */
final class RangeFiring {
    private final SliceTableWindowOperator operator;
    private final ArrayList<Object> windowSlices;
    /** Scratch: the window's tables of one key group, and one key's tables and positions. */
    private SliceTable[] rangeTables = new SliceTable[8];
    private SliceTable[] keyTables = new SliceTable[8];
    private int[] keyPositions = new int[8];
    private int[] sharedAt = new int[16];
    private int[] sharedTo = new int[8];
    /** Key groups of windows of several tables fired by ranges; for tests. */
    private long fired;
    /** Kept only so that the compiler keeps the reads of {@link ReadAhead} (always 0). */
    private int readAhead;

    RangeFiring(SliceTableWindowOperator operator) {
        this.operator = operator;
        this.windowSlices = operator.windowSlices;
    }

    long fired() {
        return fired;
    }

    /**
     * Fires a window that has several tables in this key group without a union of their keys, when every key is a
     * number and few keys fall in the range of numbers of another table than their own: then most keys are in one
     * table only, which the ranges tell without a lookup, and the few others are looked up in the tables whose
     * range holds them. Keys that grow with time (an auction's id, an order number) fill each slice with a range of
     * their own that meets the next slice's only where keys live across the slice boundary, so a window of {@code k}
     * slices fires its keys straight from the tables instead of making {@code k} lookups and a copy per key. The
     * results and their order are the union's ({@link SliceTableWindowOperator}): each key once, at its first arrival walking the
     * tables oldest first, with its slices oldest first. Returns false, having fired nothing, when the keys are not
     * all numbers or more than an eighth of them fall in another table's range (keys that every slice holds, such as
     * a fixed set of sensors): the union is then cheaper than a lookup per key and table.
     */
    boolean fire(Stripes slices, int from, int to, int group, TimeWindow window) throws Exception {
        int k = 0;
        int total = 0;
        for (int i = from; i < to; i++) {
            SliceTable t = slices.at(i)[group];
            if (t != null && t.size() > 0) {
                if (!t.numericKeys()) {
                    return false;
                }
                if (k == rangeTables.length) {
                    rangeTables = Arrays.copyOf(rangeTables, k * 2);
                }
                rangeTables[k++] = t;
                total += t.size();
            }
        }
        SliceTable[] ts = rangeTables;
        // the positions of the keys that fall in another table's range, table after table (sharedTo[i]: the end of
        // table i's), found once here and met again in order below
        if (sharedTo.length < k) {
            sharedTo = new int[rangeTables.length];
        }
        int shared = 0;
        for (int i = 0; i < k; i++) {
            if (overlapsAnother(ts, k, i)) {
                SliceTable t = ts[i];
                for (int p = 0; p < t.size(); p++) {
                    if (inAnotherRange(ts, k, i, t.keyNumber(p))) {
                        if ((shared + 1) * 8 > total) {
                            Arrays.fill(ts, 0, k, null);
                            return false;
                        }
                        if (shared == sharedAt.length) {
                            sharedAt = Arrays.copyOf(sharedAt, shared * 2);
                        }
                        sharedAt[shared++] = p;
                    }
                }
            }
            sharedTo[i] = shared;
        }
        try {
            int s = 0;
            for (int i = 0; i < k; i++) {
                SliceTable t = ts[i];
                int n = t.size();
                for (int p = 0; p < n; p++) {
                    if (p % ReadAhead.BATCH == 0) {
                        readAhead += t.readAhead(p, Math.min(n, p + ReadAhead.BATCH));
                    }
                    long number = t.keyNumber(p);
                    int found = 1;
                    keyTables[0] = t;
                    keyPositions[0] = p;
                    if (s < sharedTo[i] && sharedAt[s] == p) {
                        s++;
                        found = gather(ts, k, i, number, t.hash(p));
                        if (found < 0) {
                            continue; // an older table has this key: fired with that table's keys
                        }
                    }
                    if (found == 1) {
                        windowSlices.add(t.value(p));
                    } else {
                        for (int j = 0; j < found; j++) {
                            windowSlices.add(keyTables[j].valueInto(keyPositions[j], operator.fireScratch(j)));
                        }
                    }
                    operator.fireKey(number, group, window);
                }
            }
        } finally {
            Arrays.fill(ts, 0, k, null);
            Arrays.fill(keyTables, null);
        }
        fired++;
        return true;
    }

    /** Whether the range of table {@code i} meets the range of another of the {@code k} tables. */
    private static boolean overlapsAnother(SliceTable[] ts, int k, int i) {
        long least = ts[i].leastNumber();
        long greatest = ts[i].greatestNumber();
        for (int j = 0; j < k; j++) {
            if (j != i && ts[j].leastNumber() <= greatest && least <= ts[j].greatestNumber()) {
                return true;
            }
        }
        return false;
    }

    private static boolean inAnotherRange(SliceTable[] ts, int k, int i, long number) {
        for (int j = 0; j < k; j++) {
            if (j != i && ts[j].leastNumber() <= number && number <= ts[j].greatestNumber()) {
                return true;
            }
        }
        return false;
    }

    /**
     * For key {@code number} of table {@code i}: -1 when an older table holds it too, else how many tables hold it,
     * with this one and the newer ones that do in {@code keyTables} and {@code keyPositions}, oldest first.
     */
    private int gather(SliceTable[] ts, int k, int i, long number, int hash) {
        for (int j = 0; j < i; j++) {
            if (ts[j].leastNumber() <= number && number <= ts[j].greatestNumber() && ts[j].findNumber(hash, number) >= 0) {
                return -1;
            }
        }
        int found = 1;
        for (int j = i + 1; j < k; j++) {
            if (ts[j].leastNumber() <= number && number <= ts[j].greatestNumber()) {
                int q = ts[j].findNumber(hash, number);
                if (q >= 0) {
                    if (found == keyTables.length) {
                        keyTables = Arrays.copyOf(keyTables, found * 2);
                        keyPositions = Arrays.copyOf(keyPositions, found * 2);
                    }
                    keyTables[found] = ts[j];
                    keyPositions[found++] = q;
                }
            }
        }
        return found;
    }
}
