package io.millrace.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.state.ListState;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.SnapshotImage;
import io.millrace.runtime.state.serde.ByteWriter;
import io.millrace.runtime.state.serde.ShapeTable;
import io.millrace.runtime.state.serde.StateSerializer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** How the heap backend stores list state: one element as itself, more in its own holder; read-only views; the checkpoint format. */
class HeapListStateTest {

    /** The backend under test; the serialized-values variant of this test overrides it. */
    HeapKeyedStateBackend heap(KeyGroupRange range, int maxParallelism, io.millrace.api.time.Clock clock) {
        return new HeapKeyedStateBackend(range, maxParallelism, clock);
    }

    /** Whether stored elements are the objects added (true) or decoded copies of them (serialized values). */
    boolean keepsObjects() {
        return true;
    }

    /** {@code actual} is {@code expected} itself where elements are kept as objects, else an equal copy. */
    private void assertStoredAs(Object actual, Object expected) {
        if (keepsObjects()) {
            assertThat(actual).isSameAs(expected);
        } else {
            assertThat(actual).isEqualTo(expected).isNotSameAs(expected);
        }
    }
    private static final KeyGroupRange ALL = new KeyGroupRange(0, 127);

    record Row(long id, String name) {}

    private final HeapKeyedStateBackend backend = heap(ALL, 128, new ManualClock(0));
    private final ListState<Row> rows = backend.stateStore().getListState(new ListStateDescriptor<>("rows"));

    /** What the table holds for {@code key}, or null. */
    private Object stored(long key) {
        Object[] found = {null};
        backend.forEachEntry("rows", KeyGroups.keyGroupFor(key, 128), (k, v) -> {
            if (k.equals(key)) {
                found[0] = v;
            }
        });
        return found[0];
    }

    private List<Row> read(long key) {
        backend.setCurrentKey(key);
        List<Row> out = new ArrayList<>();
        rows.get().forEach(out::add);
        return out;
    }

    @Test
    void aKeyWithOneElement_storesTheElementItself_andAKeyWithMore_aHolderOfThem() {
        Row first = new Row(1, "a");
        backend.setCurrentKey(7L);
        rows.add(first);
        assertStoredAs(stored(7L), first);
        assertThat(read(7L)).containsExactly(first);

        Row second = new Row(2, "b");
        rows.add(second);
        assertThat(stored(7L)).isInstanceOf(HeapListState.Elements.class);
        assertThat(read(7L)).containsExactly(first, second);

        rows.update(List.of(second));
        assertStoredAs(stored(7L), second);
        rows.update(List.of());
        assertThat(stored(7L)).isNull();
        assertThat(rows.get()).isEmpty();
    }

    @Test
    void whatGetReturns_cannotChangeTheState() {
        backend.setCurrentKey(1L);
        rows.add(new Row(1, "a"));
        backend.setCurrentKey(2L);
        rows.addAll(List.of(new Row(2, "b"), new Row(3, "c")));
        for (long key : new long[] {1, 2}) {
            backend.setCurrentKey(key);
            List<Row> view = (List<Row>) rows.get();
            assertThatThrownBy(() -> view.add(new Row(9, "x"))).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> view.set(0, new Row(9, "x"))).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> {
                var it = view.iterator();
                it.next();
                it.remove();
            }).isInstanceOf(UnsupportedOperationException.class);
        }
        assertThat(read(1L)).containsExactly(new Row(1, "a"));
        assertThat(read(2L)).containsExactly(new Row(2, "b"), new Row(3, "c"));
    }

    @Test
    void anotherListStatesContents_addedAsOneElement_areStoredAsACopy() {
        ListState<Object> any = backend.stateStore().getListState(new ListStateDescriptor<>("any"));
        backend.setCurrentKey(3L);
        any.add("x");
        any.add("y");
        Object holder = any.get();
        any.add(holder); // the list itself becomes the third element
        List<Object> out = new ArrayList<>();
        any.get().forEach(out::add);
        assertThat(out).hasSize(3);
        assertThat(out.get(2)).isInstanceOf(ArrayList.class).isEqualTo(List.of("x", "y"));
        any.update(List.of(holder));
        assertThat(any.get().iterator().next()).isInstanceOf(ArrayList.class);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aListsOwnContents_addedToIt_areAddedOnce() {
        backend.setCurrentKey(4L);
        rows.addAll(List.of(new Row(1, "a"), new Row(2, "b")));
        rows.addAll((List<Row>) rows.get());
        assertThat(read(4L)).containsExactly(new Row(1, "a"), new Row(2, "b"), new Row(1, "a"), new Row(2, "b"));
    }

    /** Seeded random adds, bulk adds (from lists of several kinds), updates and clears over many keys, against a map of lists. */
    @Test
    void randomOperations_matchAMapOfLists_andSurviveASnapshot() throws Exception {
        Random random = new Random(42);
        Map<Long, List<Row>> model = new HashMap<>();
        for (int step = 0; step < 20_000; step++) {
            long key = random.nextInt(300);
            backend.setCurrentKey(key);
            List<Row> expected = model.computeIfAbsent(key, k -> new ArrayList<>());
            int op = random.nextInt(10);
            Row row = new Row(step, "r" + random.nextInt(5));
            if (op < 5) {
                rows.add(row);
                expected.add(row);
            } else if (op < 7) {
                List<Row> more = new ArrayList<>();
                for (int i = 0, n = random.nextInt(4); i < n; i++) {
                    more.add(new Row(step * 10L + i, "bulk"));
                }
                rows.addAll(random.nextBoolean() ? more : new LinkedList<>(more));
                expected.addAll(more);
            } else if (op < 9) {
                List<Row> replacement = random.nextBoolean() ? List.of(row) : Arrays.asList(row, new Row(-step, "u"));
                List<Row> written = random.nextInt(8) == 0 ? List.of() : replacement;
                rows.update(written);
                expected.clear();
                expected.addAll(written);
            } else {
                rows.clear();
                expected.clear();
            }
            assertThat(read(key)).isEqualTo(expected);
            Object stored = stored(key);
            if (expected.isEmpty()) {
                assertThat(stored).isNull();
            } else if (expected.size() == 1) {
                assertStoredAs(stored, expected.get(0));
            } else {
                assertThat(stored).isInstanceOf(HeapListState.Elements.class);
            }
        }

        SnapshotImage image = SnapshotImage.take(backend);
        HeapKeyedStateBackend fresh = heap(ALL, 128, new ManualClock(0));
        image.restoreInto(fresh);
        ListState<Row> restored = fresh.stateStore().getListState(new ListStateDescriptor<>("rows"));
        long keysWithRows = 0;
        for (Map.Entry<Long, List<Row>> e : model.entrySet()) {
            fresh.setCurrentKey(e.getKey());
            List<Row> out = new ArrayList<>();
            restored.get().forEach(out::add);
            assertThat(out).as("key %d", e.getKey()).isEqualTo(e.getValue());
            keysWithRows += e.getValue().isEmpty() ? 0 : 1;
        }
        assertThat(fresh.entryCount()).isEqualTo(keysWithRows).isPositive();
    }

    /**
     * A snapshot's lists are those of the moment it was taken: lists of immutable rows are captured as references (the
     * holders of several copied), lists of arrays serialized, and neither shows what is appended or changed after.
     */
    @Test
    void aSnapshot_showsTheListsAsTheyWereWhenTaken_whateverIsAppendedOrMutatedAfter() throws Exception {
        ListState<long[]> arrays = backend.stateStore().getListState(new ListStateDescriptor<>("arrays"));
        Random random = new Random(5);
        Map<Long, String> expected = new HashMap<>();
        for (long key = 0; key < 200; key++) {
            backend.setCurrentKey(key);
            for (int i = 0, n = random.nextBoolean() ? 1 : 3; i < n; i++) {
                rows.add(new Row(key * 10 + i, "r"));
            }
            for (int i = 0, n = 1 + random.nextInt(2); i < n; i++) {
                arrays.add(new long[] {key, i});
            }
            expected.put(key, dump(rows, arrays));
        }

        var snapshot = backend.snapshot(1);
        for (long key = 0; key < 200; key++) {
            backend.setCurrentKey(key);
            rows.add(new Row(-1, "after"));
            arrays.get().forEach(a -> a[0] = -1);
            arrays.add(new long[] {-2});
        }
        SnapshotImage image = SnapshotImage.write(snapshot, ALL);

        HeapKeyedStateBackend fresh = heap(ALL, 128, new ManualClock(0));
        image.restoreInto(fresh);
        ListState<Row> restoredRows = fresh.stateStore().getListState(new ListStateDescriptor<>("rows"));
        ListState<long[]> restoredArrays = fresh.stateStore().getListState(new ListStateDescriptor<>("arrays"));
        for (long key = 0; key < 200; key++) {
            fresh.setCurrentKey(key);
            assertThat(dump(restoredRows, restoredArrays)).as("key %d", key).isEqualTo(expected.get(key));
        }
    }

    private static String dump(ListState<Row> rows, ListState<long[]> arrays) {
        StringBuilder out = new StringBuilder();
        rows.get().forEach(r -> out.append(r).append(' '));
        arrays.get().forEach(a -> out.append(Arrays.toString(a)).append(' '));
        return out.toString();
    }

    @Test
    void aListIsWrittenInTheBytesOfAJdkList_soCheckpointsOfEitherFormRestore() {
        ShapeTable shapes = new ShapeTable();
        StateSerializer values = StateSerializer.forValues(shapes, "test", getClass().getClassLoader(), null);
        Row a = new Row(1, "a");
        Row b = new Row(2, "b");
        for (List<Row> list : List.of(List.of(a), List.of(a, b), List.of(a, b, a, b, a))) {
            ByteWriter held = new ByteWriter(16);
            HeapListState.write(HeapListState.stored(list), values, held);
            ByteWriter jdk = new ByteWriter(16);
            values.write(new ArrayList<>(list), jdk);
            assertThat(held.toByteArray()).isEqualTo(jdk.toByteArray());
        }
    }
}
