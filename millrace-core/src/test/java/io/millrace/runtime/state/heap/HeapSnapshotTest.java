package io.millrace.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.state.AggregatingStateDescriptor;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ReducingStateDescriptor;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.InternalTimerService;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.NamespacedState;
import io.millrace.runtime.state.SnapshotImage;
import io.millrace.runtime.state.Triggerable;
import io.millrace.runtime.state.serde.VoidNamespace;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.NotSerializableException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class HeapSnapshotTest {

    /** The backend under test; the serialized-values variant of this test overrides it. */
    HeapKeyedStateBackend heap(KeyGroupRange range, int maxParallelism, io.millrace.api.time.Clock clock) {
        return new HeapKeyedStateBackend(range, maxParallelism, clock);
    }
    private static final KeyGroupRange ALL = new KeyGroupRange(0, 127);

    record Reading(String sensor, double value, List<Long> tags) {}

    enum Phase { FIRE, CLEANUP }

    /** Average of longs; the accumulator is a {sum, count} array mutated in place. */
    static final class Average implements AggregateFunction<Long, long[], Double> {
        @Override
        public long[] createAccumulator() {
            return new long[2];
        }

        @Override
        public long[] add(Long value, long[] acc) {
            acc[0] += value;
            acc[1]++;
            return acc;
        }

        @Override
        public Double getResult(long[] acc) {
            return (double) acc[0] / acc[1];
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            a[0] += b[0];
            a[1] += b[1];
            return a;
        }
    }

    /** Every state kind and a timer service of one backend, with a recording of fired timers. */
    static final class AllKinds implements Triggerable<Object> {
        final HeapKeyedStateBackend backend;
        final ValueState<String> value;
        final io.millrace.api.state.ListState<Long> list;
        final io.millrace.api.state.MapState<String, Reading> map;
        final io.millrace.api.state.ReducingState<Long> sum;
        final io.millrace.api.state.AggregatingState<Long, Double> average;
        final NamespacedState<Long, double[]> slices;
        final InternalTimerService<Object> timers;
        final List<String> fired = new ArrayList<>();

        AllKinds(HeapKeyedStateBackend backend) {
            this.backend = backend;
            var store = backend.stateStore();
            value = store.getState(new ValueStateDescriptor<>("value"));
            list = store.getListState(new ListStateDescriptor<>("list"));
            map = store.getMapState(new MapStateDescriptor<>("map"));
            sum = store.getReducingState(new ReducingStateDescriptor<Long>("sum", Long::sum));
            average = store.getAggregatingState(new AggregatingStateDescriptor<>("average", new Average()));
            slices = backend.namespacedState("slices");
            timers = backend.timerService("timers", this);
        }

        void fill(Object key, Random random) {
            backend.setCurrentKey(key);
            value.update("v" + random.nextInt(1000));
            for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
                list.add(random.nextLong());
                map.put("m" + random.nextInt(5), new Reading("s" + i, random.nextDouble(), List.of((long) i, 7L)));
                sum.add((long) random.nextInt(100));
                average.add((long) random.nextInt(100));
                slices.put((long) random.nextInt(4) * 10, new double[] {random.nextDouble(), i});
            }
            timers.registerEventTimeTimer(VoidNamespace.INSTANCE, random.nextInt(50));
            timers.registerEventTimeTimer(random.nextBoolean() ? Phase.FIRE : Phase.CLEANUP, random.nextInt(50));
            timers.registerProcessingTimeTimer(random.nextInt(3) * 10L, 1_000 + random.nextInt(50));
        }

        /** A canonical text of everything stored for a key. */
        String dump(Object key) {
            backend.setCurrentKey(key);
            Map<String, Reading> m = new TreeMap<>();
            map.entries().forEach(e -> m.put(e.getKey(), e.getValue()));
            Map<Long, String> s = new TreeMap<>();
            slices.forEach((ns, acc) -> s.put(ns, Arrays.toString(acc)));
            List<Long> l = new ArrayList<>();
            list.get().forEach(l::add);
            return key + ": " + value.value() + " " + l + " " + m + " " + sum.get() + " " + average.get() + " " + s;
        }

        @Override
        public void onEventTime(long timestamp, Object namespace) {
            fired.add("event " + backend.currentKey() + " " + namespace + " " + timestamp);
        }

        @Override
        public void onProcessingTime(long timestamp, Object namespace) {
            fired.add("processing " + backend.currentKey() + " " + namespace + " " + timestamp);
        }
    }

    static List<Object> keys(int n) {
        List<Object> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            keys.add(i % 3 == 0 ? (Object) ("key-" + i) : (Object) (long) i);
        }
        return keys;
    }

    @Test
    void everyStateKindNamespacedStateAndTimers_surviveSnapshotAndRestore() throws Exception {
        ManualClock clock = new ManualClock(0);
        AllKinds before = new AllKinds(heap(ALL, 128, clock));
        Random random = new Random(7);
        List<Object> keys = keys(300);
        keys.forEach(k -> before.fill(k, random));

        SnapshotImage image = SnapshotImage.take(before.backend);
        HeapKeyedStateBackend fresh = heap(ALL, 128, clock);
        image.restoreInto(fresh);
        AllKinds after = new AllKinds(fresh);

        assertThat(fresh.entryCount()).isEqualTo(before.backend.entryCount()).isEqualTo(6L * keys.size());
        assertThat(fresh.eventTimeTimerCount()).isEqualTo(before.backend.eventTimeTimerCount());
        assertThat(fresh.processingTimeTimerCount()).isEqualTo(before.backend.processingTimeTimerCount());
        for (Object k : keys) {
            assertThat(after.dump(k)).isEqualTo(before.dump(k));
        }
        for (AllKinds side : List.of(before, after)) {
            side.backend.advanceWatermark(Long.MAX_VALUE);
            clock.set(Math.max(clock.millis(), 2_000));
            side.backend.advanceProcessingTime(2_000);
        }
        assertThat(before.fired).hasSizeGreaterThan(2 * keys.size());
        assertThat(after.fired).isEqualTo(before.fired);
        assertThat(fresh.unclaimedRestoredNames()).isEmpty();
    }

    @Test
    void manyKeysPerKeyGroup_surviveSnapshotAndRestore() throws Exception {
        // 4 key groups for 1,000 keys: each group's tables hold ~250 entries, on the path that serializes at capture
        // (mutable values) and on the one that copies references and serializes later (immutable values); once
        // with mixed keys, once with Long keys only, which the tables keep as numbers
        List<Object> longsOnly = new ArrayList<>();
        for (long i = 0; i < 1_000; i++) {
            longsOnly.add(i * 7_919);
        }
        for (List<Object> keys : List.of(keys(1_000), longsOnly)) {
            snapshotAndRestoreWithFourKeyGroups(keys);
        }
    }

    private void snapshotAndRestoreWithFourKeyGroups(List<Object> keys) throws Exception {
        KeyGroupRange four = new KeyGroupRange(0, 3);
        ManualClock clock = new ManualClock(0);
        AllKinds before = new AllKinds(heap(four, 4, clock));
        Random random = new Random(13);
        keys.forEach(k -> before.fill(k, random));

        for (boolean afterChanges : new boolean[] {false, true}) {
            var snapshot = before.backend.snapshot(afterChanges ? 2 : 1);
            List<String> expected = keys.stream().map(before::dump).toList();
            if (afterChanges) {
                for (Object k : keys) { // the copy-on-write path: every group changes before the writer reaches it
                    before.backend.setCurrentKey(k);
                    before.value.update("later");
                    before.slices.forEach((ns, acc) -> acc[0] = -1);
                }
            }
            SnapshotImage image = SnapshotImage.write(snapshot, four);
            AllKinds after = new AllKinds(heap(four, 4, clock));
            image.restoreInto(after.backend);
            assertThat(after.backend.entryCount()).isEqualTo(6L * keys.size());
            assertThat(keys.stream().map(after::dump).toList()).isEqualTo(expected);
        }
    }

    @Test
    void changesAfterSnapshotReturns_includingInPlaceMutation_doNotShowInWhatIsWritten() throws Exception {
        HeapKeyedStateBackend backend = heap(ALL, 128, new ManualClock(0));
        AllKinds state = new AllKinds(backend);
        Random random = new Random(11);
        List<Object> keys = keys(100);
        keys.forEach(k -> state.fill(k, random));
        List<String> expected = keys.stream().map(state::dump).toList();
        int timers = backend.eventTimeTimerCount();

        var snapshot = backend.snapshot(3);
        for (Object k : keys) {
            backend.setCurrentKey(k);
            state.value.update("changed");
            state.list.add(-1L);
            state.sum.add(1_000L);
            state.average.add(1_000_000L);
            state.slices.forEach((ns, acc) -> acc[0] = -42);
            state.slices.put(99L, new double[] {1});
            state.map.remove("m0");
            state.timers.registerEventTimeTimer(VoidNamespace.INSTANCE, 5_000);
        }
        backend.setCurrentKey("new key");
        state.value.update("new");
        backend.advanceWatermark(Long.MAX_VALUE);
        backend.advanceProcessingTime(10_000);
        assertThat(backend.eventTimeTimerCount()).isZero();
        SnapshotImage image = SnapshotImage.write(snapshot, ALL);

        AllKinds restored = new AllKinds(heap(ALL, 128, new ManualClock(0)));
        image.restoreInto(restored.backend);
        assertThat(keys.stream().map(restored::dump).toList()).isEqualTo(expected);
        assertThat(restored.backend.eventTimeTimerCount()).isEqualTo(timers);
        restored.backend.setCurrentKey("new key");
        assertThat(restored.value.value()).isNull();
    }

    @Test
    void restoredStateAndTimersNotYetClaimed_areCarriedIntoTheNextSnapshot() throws Exception {
        ManualClock clock = new ManualClock(0);
        AllKinds first = new AllKinds(heap(ALL, 128, clock));
        Random random = new Random(5);
        List<Object> keys = keys(50);
        keys.forEach(k -> first.fill(k, random));
        List<String> expected = keys.stream().map(first::dump).toList();

        HeapKeyedStateBackend middle = heap(ALL, 128, clock);
        SnapshotImage.take(first.backend).restoreInto(middle);
        middle.stateStore().getState(new ValueStateDescriptor<String>("value"));
        assertThat(middle.unclaimedRestoredNames()).contains("list", "slices", "timers").doesNotContain("value");
        SnapshotImage second = SnapshotImage.take(middle);

        AllKinds last = new AllKinds(heap(ALL, 128, clock));
        second.restoreInto(last.backend);
        // restored after the services exist: adopted at once
        assertThat(keys.stream().map(last::dump).toList()).isEqualTo(expected);
        assertThat(last.backend.eventTimeTimerCount()).isEqualTo(first.backend.eventTimeTimerCount());
        assertThat(last.backend.unclaimedRestoredNames()).isEmpty();
    }

    @Test
    void aValueThatCannotBeSerialized_failsWritingTheSnapshotNamingTheStateAndTheClass() {
        HeapKeyedStateBackend backend = heap(ALL, 128, new ManualClock(0));
        ValueState<Object> state = backend.stateStore().getState(new ValueStateDescriptor<>("holder"));
        backend.setCurrentKey("k");
        state.update(new Object[] {new StringBuilder("ok"), new Thread()});
        backend.setCurrentKey("other");

        assertThatThrownBy(() -> SnapshotImage.take(backend))
                .hasRootCauseInstanceOf(NotSerializableException.class)
                .hasMessageContaining("state 'holder'")
                .hasMessageContaining("[Ljava.lang.Object;")
                .hasMessageContaining("java.lang.Thread");
    }

    @Test
    void aStateRestoredAsOneKindAndRegisteredAsAnother_isRefusedNamingBothKinds() throws Exception {
        HeapKeyedStateBackend backend = heap(ALL, 128, new ManualClock(0));
        backend.stateStore().getListState(new ListStateDescriptor<Long>("counts"));
        backend.setCurrentKey("k");
        backend.stateStore().getListState(new ListStateDescriptor<Long>("counts")).add(1L);
        SnapshotImage image = SnapshotImage.take(backend);

        HeapKeyedStateBackend fresh = heap(ALL, 128, new ManualClock(0));
        image.restoreInto(fresh);
        assertThatThrownBy(() -> fresh.stateStore().getState(new ValueStateDescriptor<Long>("counts")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'counts'")
                .hasMessageContaining("list state")
                .hasMessageContaining("value state");
    }

    @Test
    void aKeyGroupOutsideTheRange_isRefusedNamingTheGroupAndTheRange() throws Exception {
        HeapKeyedStateBackend full = heap(ALL, 128, new ManualClock(0));
        SnapshotImage image = SnapshotImage.take(full);
        HeapKeyedStateBackend half = heap(new KeyGroupRange(0, 63), 128, new ManualClock(0));
        int at = (int) image.offsets()[100];

        assertThatThrownBy(() -> half.restoreKeyGroup(100,
                        new DataInputStream(new ByteArrayInputStream(image.bytes(), at, image.bytes().length - at))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key group 100")
                .hasMessageContaining("[0, 63]");
    }

    @Test
    void readingAtTheWrongOffset_failsNamingTheExpectedGroup() throws Exception {
        SnapshotImage image = SnapshotImage.take(heap(ALL, 128, new ManualClock(0)));
        HeapKeyedStateBackend fresh = heap(ALL, 128, new ManualClock(0));
        int at = (int) image.offsets()[5];

        assertThatThrownBy(() -> fresh.restoreKeyGroup(6,
                        new DataInputStream(new ByteArrayInputStream(image.bytes(), at, image.bytes().length - at))))
                .hasMessageContaining("key group 6")
                .hasMessageContaining("found key group 5");
    }
}
