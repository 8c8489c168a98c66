package io.millrace.runtime.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.KeyedStateSnapshot;
import io.millrace.runtime.state.SnapshotImage;
import io.millrace.runtime.state.heap.HeapKeyedStateBackend;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A checkpoint of slice tables holds what they held when it was taken, although the task changes them before
 * the writer gets there: tables of immutable values are copied by reference when the task first changes their
 * key group, tables of mutable values are serialized then.
 */
class SliceStoreCopyTest {
    private static final KeyGroupRange ALL = new KeyGroupRange(0, 127);

    /** A mutable accumulator, changed in place. */
    static final class Box {
        long n;

        Box() {}

        Box(long n) {
            this.n = n;
        }

        @Override
        public String toString() {
            return "Box" + n;
        }
    }

    record Max(String key, long value) {}

    /** A backend with a registered slice store. */
    private static final class Store {
        final HeapKeyedStateBackend backend = new HeapKeyedStateBackend(ALL, 128, new ManualClock(0));
        final SliceStore store;

        Store() {
            this(null);
        }

        /** A store whose slice tables pack values with {@code packing} (null: objects). */
        Store(Packing packing) {
            store = new SliceStore("s", 0, 128, packing);
            backend.registerGroupedState("s", store);
        }

        /** Sets {@code key}'s value in slice {@code slice} to {@code change} of its current value (null when none). */
        void update(long slice, String key, UnaryOperator<Object> change) {
            int group = KeyGroups.keyGroupFor(key, 128);
            backend.setCurrentKey(key, group);
            SliceTable t = store.slices.table(slice, group);
            int p = t.find(key, key.hashCode());
            if (p < 0) {
                t.add(key, key.hashCode(), change.apply(null));
            } else {
                Object updated = change.apply(t.value(p));
                if (updated != t.value(p)) {
                    t.setValue(p, updated);
                }
            }
        }

        /** slice -> key -> value, as text. */
        TreeMap<String, String> dump() {
            TreeMap<String, String> out = new TreeMap<>();
            for (int i = 0; i < store.slices.count(); i++) {
                for (SliceTable t : store.slices.at(i)) {
                    for (int p = 0; t != null && p < t.size(); p++) {
                        out.put(store.slices.id(i) + "/" + t.key(p), String.valueOf(t.value(p)));
                    }
                }
            }
            return out;
        }
    }

    private static List<String> keys(int n) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            keys.add("k" + i);
        }
        return keys;
    }

    private static void checkSnapshotMoment(UnaryOperator<Object> change) throws Exception {
        checkSnapshotMoment(change, null, null);
    }

    /** The live store packs with {@code live}, the restored one with {@code restoredWith} (null: objects). */
    private static void checkSnapshotMoment(UnaryOperator<Object> change, Packing packing, Packing restoredWith) throws Exception {
        Random random = new Random(5);
        Store live = new Store(packing);
        List<String> keys = keys(2_000);
        for (String k : keys) {
            live.update(random.nextInt(3) * 10L, k, change);
        }
        TreeMap<String, String> expected = live.dump();
        KeyedStateSnapshot snapshot = live.backend.snapshot(1);
        for (String k : keys) {
            live.update(random.nextInt(4) * 10L, k, change);
        }
        live.update(40, "a new key in a new slice", change);
        assertThat(live.dump()).isNotEqualTo(expected);

        Store restored = new Store(restoredWith);
        SnapshotImage.write(snapshot, ALL).restoreInto(restored.backend);
        assertThat(restored.dump()).isEqualTo(expected);
    }

    @Test
    void immutableValuesReplacedAfterTheSnapshot_doNotShowInIt() throws Exception {
        checkSnapshotMoment(v -> v == null ? new Max("first", 1) : new Max("next", ((Max) v).value() + 1));
    }

    @Test
    void mutableValuesChangedInPlaceAfterTheSnapshot_doNotShowInIt() throws Exception {
        checkSnapshotMoment(v -> {
            if (v == null) {
                return new Box(1);
            }
            ((Box) v).n++;
            return v;
        });
    }

    /** Adds one record of {@code value} to a {@link Ev.Sum} in place (a new one for null). */
    private static UnaryOperator<Object> addToSum(long value) {
        return v -> {
            Ev.Sum sum = v == null ? new Ev.PackedSumCount().createAccumulator() : (Ev.Sum) v;
            return new Ev.PackedSumCount().add(new Ev("x", value), sum);
        };
    }

    @Test
    void packedValuesChangedAfterTheSnapshot_doNotShowInIt_andRestorePackedOrAsObjects() throws Exception {
        Packing packing = Packing.of(new Ev.PackedSumCount());
        checkSnapshotMoment(addToSum(3), packing, packing);
        checkSnapshotMoment(addToSum(3), packing, null);
        checkSnapshotMoment(addToSum(3), null, packing);
    }

    @Test
    void aGroupOfPackedValuesIsCopied() {
        Store s = new Store(Packing.of(new Ev.PackedSumCount()));
        s.update(0, "k1", addToSum(1));
        assertThat(s.store.capture().copyGroup(KeyGroups.keyGroupFor("k1", 128))).isNotNull();
    }

    @Test
    void anAccumulatorThatDoesNotPackLikeTheFirst_failsNamingBothClasses() {
        Store s = new Store(Packing.of(new Ev.PackedSumCount()));
        assertThatThrownBy(() -> s.update(0, "k1", v -> new Box(1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(Ev.PackedSumCount.class.getName())
                .hasMessageContaining(Box.class.getName())
                .hasMessageContaining(Ev.Sum.class.getName() + ", packs 2 longs");
    }

    @Test
    void aGroupOfImmutableValuesIsCopied_oneWithAMutableValueIsNot() {
        Store s = new Store();
        s.update(0, "k1", v -> 7L);
        int group = KeyGroups.keyGroupFor("k1", 128);
        assertThat(s.store.capture().copyGroup(group)).isNotNull();
        s.update(10, "k1", v -> new Box(1));
        assertThat(s.store.capture().copyGroup(group)).isNull();
    }

    @Test
    void aGroupOfManyImmutableValuesIsCopied_untilOneFarIntoTheTableIsMutable() {
        // 100 keys of one key group in one slice: the check must look at every value, not stop early
        Store s = new Store();
        int group = KeyGroups.keyGroupFor("k0", 128);
        List<String> sameGroup = new ArrayList<>();
        for (int i = 0; sameGroup.size() < 100; i++) {
            if (KeyGroups.keyGroupFor("k" + i, 128) == group) {
                sameGroup.add("k" + i);
            }
        }
        for (String k : sameGroup) {
            s.update(0, k, v -> 7L);
        }
        assertThat(s.store.capture().copyGroup(group)).isNotNull();
        s.update(0, sameGroup.get(70), v -> new Box(1));
        assertThat(s.store.capture().copyGroup(group)).isNull();
    }
}
