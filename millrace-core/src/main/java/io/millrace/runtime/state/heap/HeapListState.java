package io.millrace.runtime.state.heap;

import io.millrace.api.state.ListState;
import io.millrace.runtime.state.serde.ByteWriter;
import io.millrace.runtime.state.serde.StateSerializer;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * List state. The table holds, for a key with one element, the element itself, and for a key with more an
 * {@link Elements} (a class no stored element can be of: it is private to this package); a key whose list would
 * become empty loses its entry. One element per key is the common case (a join's row waiting for its match, a
 * key's first event), and then a young collection copies the element and nothing else, where a list object and
 * its array made two more objects to copy for each such key.
 *
 * <p>{@link #get()} returns the elements read-only: for one element a list of it as it is at the call, for more
 * the stored elements themselves. Whether an {@code Iterable} obtained before an {@link #add} shows the added
 * element is not defined (it differs between backends too).
 */
final class HeapListState<T> implements ListState<T> {
    private final StateTable table;

    HeapListState(StateTable table) {
        this.table = table;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Iterable<T> get() {
        Object stored = table.get();
        if (stored == null) {
            return List.of();
        }
        return stored instanceof Elements e ? (Iterable<T>) e : List.of((T) stored);
    }

    @Override
    public void add(T value) {
        Objects.requireNonNull(value, () -> "list state '" + table.name + "' does not accept null");
        int p = table.entry(true);
        Object v = element(value);
        if (p < 0) {
            table.insert(v);
            return;
        }
        if (table.serialized() && table.appendElement(p, v)) {
            return;
        }
        Object stored = table.valueToAppendTo(p);
        if (stored instanceof Elements e) {
            e.append(v);
        } else {
            table.appendedValue(p, new Elements(stored, v));
        }
    }

    @Override
    public void addAll(List<T> values) {
        if (values.isEmpty()) {
            return;
        }
        checkNoNulls(values);
        int p = table.entry(true);
        if (p < 0) {
            table.insert(stored(values));
            return;
        }
        if (table.serialized()) {
            int added = 0;
            for (T value : values) {
                if (!table.appendElement(p, element(value))) {
                    break; // back to objects (auto: a mutable element): the rest goes in as objects
                }
                added++;
            }
            if (added == values.size()) {
                return;
            }
            values = values.subList(added, values.size());
        }
        Object stored = table.valueToAppendTo(p);
        if (stored instanceof Elements e) {
            e.appendAll(values);
        } else {
            Elements e = new Elements(new Object[] {stored});
            e.appendAll(values);
            table.appendedValue(p, e);
        }
    }

    /** Replaces the list; null or empty clears it. */
    @Override
    public void update(List<T> values) {
        if (values == null || values.isEmpty()) {
            table.remove();
            return;
        }
        checkNoNulls(values);
        table.put(stored(values));
    }

    @Override
    public void clear() {
        table.remove();
    }

    private void checkNoNulls(List<T> values) {
        for (T v : values) {
            Objects.requireNonNull(v, () -> "list state '" + table.name + "' does not accept null");
        }
    }

    /** What the table holds for {@code values} (copied): the one element, an {@link Elements}, or null for none. */
    static Object stored(List<?> values) {
        if (values.isEmpty()) {
            return null;
        }
        if (values.size() == 1) {
            return element(values.get(0));
        }
        Elements e = new Elements(new Object[values.size()], 0);
        e.appendAll(values);
        return e;
    }

    /** Writes what the table holds for a key as a list, in the bytes of a list of its elements (the checkpoint format). */
    static void write(Object stored, StateSerializer values, ByteWriter out) {
        if (stored instanceof Elements e) {
            values.writeListStart(e.size, out);
            for (int i = 0; i < e.size; i++) {
                values.write(e.items[i], out);
            }
        } else {
            values.writeListStart(1, out);
            values.write(stored, out);
        }
    }

    /**
     * The element to store for {@code value}: itself, or, when it is an {@link Elements} (another list state's
     * {@link #get()} added as an element), a copy as a JDK list, so that no stored element is one.
     */
    private static Object element(Object value) {
        return value instanceof Elements e ? new ArrayList<>(e) : value;
    }

    /** Two or more elements of one key, in order; read-only to everybody but {@link HeapListState}. */
    static final class Elements extends AbstractList<Object> implements RandomAccess {
        private Object[] items;
        private int size;

        Elements(Object first, Object second) {
            items = new Object[] {first, second, null, null};
            size = 2;
        }

        /** The elements in {@code items} (kept, not copied). */
        Elements(Object[] items) {
            this(items, items.length);
        }

        private Elements(Object[] items, int size) {
            this.items = items;
            this.size = size;
        }

        @Override
        public Object get(int index) {
            Objects.checkIndex(index, size);
            return items[index];
        }

        @Override
        public int size() {
            return size;
        }

        /** A copy that later appends do not change, or null when an element is not {@linkplain ImmutableClasses immutable}. */
        Elements immutableCopy() {
            for (int i = 0; i < size; i++) {
                if (!ImmutableClasses.isImmutable(items[i])) {
                    return null;
                }
            }
            return new Elements(Arrays.copyOf(items, size));
        }

        void append(Object value) {
            if (size == items.length) {
                items = Arrays.copyOf(items, size * 2);
            }
            items[size++] = value;
        }

        void appendAll(List<?> values) {
            if (values == this) {
                values = new ArrayList<>(this); // the list's own get() added to it: what it held before
            }
            int n = values.size();
            if (size + n > items.length) {
                items = Arrays.copyOf(items, Math.max(size * 2, size + n));
            }
            for (Object v : values) {
                items[size++] = element(v);
            }
        }
    }
}
