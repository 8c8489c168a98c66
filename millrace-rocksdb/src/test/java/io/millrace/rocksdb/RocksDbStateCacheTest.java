package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.state.ListState;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.StateTtlConfig;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.checkpoint.LocalCheckpointStorage;
import io.millrace.runtime.state.InternalTimerService;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.NamespacedState;
import io.millrace.runtime.state.SnapshotImage;
import io.millrace.runtime.state.Triggerable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The RocksDB backend's write-back state cache: what reaches RocksDB when, and what users see. */
class RocksDbStateCacheTest {
    private static final KeyGroupRange ALL = new KeyGroupRange(0, 127);

    @TempDir
    Path base;

    private final ManualClock clock = new ManualClock(1_000);
    @RegisterExtension
    final OpenedBackends backends = new OpenedBackends();

    private RocksDbKeyedStateBackend backend(KeyGroupRange range, int cacheEntries) {
        return backends.rocksDb(base.resolve("rocksdb"), clock, range, cacheEntries);
    }

    private static ValueState<Integer> counts(RocksDbKeyedStateBackend b) {
        return b.stateStore().getState(new ValueStateDescriptor<>("counts"));
    }

    @Test
    void valueState_handsOutTheCachedObject_andAChangeAfterUpdateIsWhatTheSnapshotHolds() throws Exception {
        RocksDbKeyedStateBackend b = backend(ALL, 1_024);
        ValueState<List<Integer>> state = b.stateStore().getState(new ValueStateDescriptor<>("list-value"));
        b.setCurrentKey("k");
        List<Integer> list = new ArrayList<>(List.of(1));
        state.update(list);
        list.add(2);
        assertThat(state.value()).isSameAs(list);

        RocksDbKeyedStateBackend restored = backend(ALL, 1_024);
        SnapshotImage.take(b).restoreInto(restored);
        ValueState<List<Integer>> again = restored.stateStore().getState(new ValueStateDescriptor<>("list-value"));
        restored.setCurrentKey("k");
        assertThat(again.value()).containsExactly(1, 2);
    }

    @Test
    void withTheCacheOff_valueStateReturnsCopies_soOnlyUpdateChangesTheStoredValue() {
        RocksDbKeyedStateBackend b = backend(ALL, 0);
        assertThat(b.cache()).isNull();
        ValueState<List<Integer>> state = b.stateStore().getState(new ValueStateDescriptor<>("list-value"));
        b.setCurrentKey("k");
        state.update(new ArrayList<>(List.of(1)));
        state.value().add(2);
        assertThat(state.value()).containsExactly(1);
    }

    @Test
    void cachedWrites_reachRocksDbOnlyWhenEvictedOrFlushed_andScansSeeThemAll() {
        RocksDbKeyedStateBackend b = backend(ALL, 1_024);
        ValueState<Integer> counts = counts(b);
        for (int k = 0; k < 40; k++) {
            b.setCurrentKey(k);
            counts.update(k);
        }
        assertThat(b.cache().writeBacks()).as("nothing evicted yet").isZero();
        List<Object> seen = new ArrayList<>();
        int group = KeyGroups.keyGroupFor(7, 128);
        b.forEachEntry("counts", group, (k, v) -> seen.add(k + "=" + v));
        assertThat(seen).contains("7=7");
        assertThat(b.entryCount()).isEqualTo(40);
        assertThat(b.cache().writeBacks()).as("flushed for the scans").isEqualTo(40);

        for (int k = 40; k < 4_000; k++) {
            b.setCurrentKey(k);
            counts.update(k);
        }
        assertThat(b.cache().size()).isLessThanOrEqualTo(1_024);
        assertThat(b.cache().writeBacks()).isGreaterThanOrEqualTo(4_000 - 1_024);
        for (int k = 0; k < 4_000; k++) {
            b.setCurrentKey(k);
            assertThat(counts.value()).isEqualTo(k);
        }
    }

    @Test
    void namespacedState_forEach_seesCachedRowsRocksDbDoesNotHoldYet_andNotRemovedOnes() {
        RocksDbKeyedStateBackend b = backend(ALL, 64);
        NamespacedState<Long, String> windows = b.namespacedState("windows");
        b.setCurrentKey("machine");
        windows.put(1L, "stored");
        b.flush();
        windows.put(2L, "cached");
        windows.put(3L, "removed");
        windows.remove(3L);
        windows.put(1L, "changed");
        TreeSet<String> seen = new TreeSet<>();
        windows.forEach((ns, v) -> seen.add(ns + "=" + v));
        assertThat(seen).containsExactly("1=changed", "2=cached");
        windows.clear();
        seen.clear();
        windows.forEach((ns, v) -> seen.add(ns + "=" + v));
        assertThat(seen).isEmpty();
        assertThat(b.entryCount()).isZero();
    }

    @Test
    void namespacedState_aKeyVisitedWithoutRows_isRemembered_andRowsWrittenLaterAreSeenAfterEvictions() {
        RocksDbKeyedStateBackend b = backend(ALL, 64);
        NamespacedState<Long, String> windows = b.namespacedState("windows");
        b.setCurrentKey("empty");
        int before = b.cache().size();
        List<String> seen = new ArrayList<>();
        windows.forEach((ns, v) -> seen.add(ns + "=" + v));
        assertThat(seen).isEmpty();
        assertThat(b.cache().size()).as("an anchor remembers that the key has no rows").isEqualTo(before + 1);
        assertThat(windows.get(1L)).isNull();
        windows.put(1L, "a");
        windows.put(2L, "b");
        windows.forEach((ns, v) -> seen.add(ns + "=" + v));
        assertThat(seen).containsExactlyInAnyOrder("1=a", "2=b");

        for (int k = 0; k < 500; k++) { // evicts the key's rows and its anchor, several times over
            b.setCurrentKey(k);
            windows.forEach((ns, v) -> seen.add(ns + "=" + v));
            windows.put(7L, "x" + k);
        }
        b.setCurrentKey("empty");
        seen.clear();
        windows.forEach((ns, v) -> seen.add(ns + "=" + v));
        assertThat(seen).containsExactlyInAnyOrder("1=a", "2=b");
        windows.remove(1L);
        assertThat(windows.get(1L)).isNull();
        assertThat(windows.get(2L)).isEqualTo("b");
        for (int k = 0; k < 500; k++) {
            b.setCurrentKey(k);
            seen.clear();
            windows.forEach((ns, v) -> seen.add(ns + "=" + v));
            assertThat(seen).as("key %d", k).containsExactly("7=x" + k);
        }
    }

    @Test
    void cachedValuesWithTtl_expireOnTime_andAreWrittenWithTheExpiryAStoredRowWouldHave() {
        RocksDbKeyedStateBackend b = backend(ALL, 64);
        @SuppressWarnings("unchecked")
        ValueState<Integer> written = b.stateStore().getState((ValueStateDescriptor<Integer>) new ValueStateDescriptor<Integer>("written")
                .enableTimeToLive(StateTtlConfig.afterWrite(Duration.ofMillis(100))));
        @SuppressWarnings("unchecked")
        ValueState<Integer> accessed = b.stateStore().getState((ValueStateDescriptor<Integer>) new ValueStateDescriptor<Integer>("accessed")
                .enableTimeToLive(StateTtlConfig.afterAccess(Duration.ofMillis(100))));
        b.setCurrentKey("k");
        written.update(1);
        accessed.update(2);
        clock.set(1_050);
        assertThat(accessed.value()).isEqualTo(2);
        b.flush();
        assertThat(storedExpiry(b, "written")).isEqualTo(1_100);
        assertThat(storedExpiry(b, "accessed")).as("refreshed by the read at 1050").isEqualTo(1_150);

        clock.set(1_099);
        assertThat(written.value()).isEqualTo(1);
        clock.set(1_100);
        assertThat(written.value()).isNull();
        b.setCurrentKey("other");
        written.update(3);
        b.flush();
        assertThat(storedExpiry(b, "written")).isEqualTo(1_200);
        clock.set(1_300);
        written.update(4);
        clock.set(1_400);
        b.flush();
        assertThat(b.stateColumn("written").get(b.currentKeyBytes())).as("an expired cached value is written back as a delete").isNull();
    }

    private static long storedExpiry(RocksDbKeyedStateBackend b, String state) {
        byte[] row = b.stateColumn(state).get(b.currentKeyBytes());
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (row[i] & 0xFF);
        }
        return v;
    }

    /**
     * A join's pattern: read a key's waiting rows, then clear them. Clearing what a read found absent (or what is
     * already cleared) changes nothing and marks nothing dirty; clearing what exists still deletes it.
     */
    @Test
    void clearingAbsentState_marksNothingDirty_whileClearingPresentStateDeletesIt() throws Exception {
        RocksDbKeyedStateBackend b = backend(ALL, 65_536);
        ListState<Long> pending = b.stateStore().getListState(new ListStateDescriptor<>("pending"));
        ValueState<Long> value = b.stateStore().getState(new ValueStateDescriptor<>("value"));
        for (int k = 0; k < 1_000; k++) {
            b.setCurrentKey(k);
            assertThat(pending.get()).isEmpty();
            pending.clear();
            assertThat(value.value()).isNull();
            value.clear();
            value.clear();
        }
        assertThat(b.cache().dirtyCount()).as("nothing to write back").isZero();
        b.snapshot(1, true).release();
        assertThat(b.cache().writeBacks()).isZero();

        for (int k = 0; k < 1_000; k += 2) {
            b.setCurrentKey(k);
            pending.add((long) k);
            value.update((long) k);
        }
        b.snapshot(2, true).release();
        long afterAdds = b.cache().writeBacks();
        assertThat(afterAdds).isEqualTo(1_000);
        for (int k = 0; k < 1_000; k++) {
            b.setCurrentKey(k);
            pending.get();
            pending.clear();
            value.clear();
        }
        b.snapshot(3, true).release();
        assertThat(b.cache().writeBacks()).as("one delete per row that existed").isEqualTo(afterAdds + 1_000);
        RocksDbKeyedStateBackend restored = backend(ALL, 65_536);
        SnapshotImage.take(b).restoreInto(restored);
        ListState<Long> restoredPending = restored.stateStore().getListState(new ListStateDescriptor<>("pending"));
        ValueState<Long> restoredValue = restored.stateStore().getState(new ValueStateDescriptor<>("value"));
        for (int k = 0; k < 1_000; k++) {
            restored.setCurrentKey(k);
            assertThat(restoredPending.get()).isEmpty();
            assertThat(restoredValue.value()).isNull();
        }
    }

    @Test
    void namespacedValuesRead_areNotWrittenBack_whileValuesGot_are() throws Exception {
        RocksDbKeyedStateBackend b = backend(ALL, 65_536);
        NamespacedState<Long, long[]> windows = b.namespacedState("windows");
        for (int k = 0; k < 1_000; k++) {
            b.setCurrentKey(k);
            windows.put(k % 3L, new long[] {k});
        }
        b.snapshot(1, true).release();
        long afterPuts = b.cache().writeBacks();
        assertThat(afterPuts).as("the snapshot wrote the puts back").isGreaterThanOrEqualTo(1_000);

        for (int k = 0; k < 1_000; k++) {
            b.setCurrentKey(k);
            assertThat(windows.read(k % 3L)).containsExactly(k);
        }
        b.snapshot(2, true).release();
        assertThat(b.cache().writeBacks()).as("reads leave entries clean").isEqualTo(afterPuts);

        for (int k = 0; k < 1_000; k++) {
            b.setCurrentKey(k);
            windows.get(k % 3L)[0]++;
        }
        b.snapshot(3, true).release();
        assertThat(b.cache().writeBacks()).as("a value got may have been changed in place").isEqualTo(afterPuts + 1_000);
        RocksDbKeyedStateBackend restored = backend(ALL, 65_536);
        SnapshotImage.take(b).restoreInto(restored);
        NamespacedState<Long, long[]> again = restored.namespacedState("windows");
        restored.setCurrentKey(7);
        assertThat(again.read(1L)).containsExactly(8);
    }

    @Test
    void dirtyEntries_reachFullAndIncrementalSnapshots_andRestoresAtAnotherParallelism() throws Exception {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(base.resolve("checkpoints"));
        RocksDbKeyedStateBackend b = backend(ALL, 65_536);
        ValueState<Integer> counts = counts(b);
        NamespacedState<Long, long[]> windows = b.namespacedState("windows");
        for (int k = 0; k < 1_000; k++) {
            b.setCurrentKey(k);
            counts.update(k);
            windows.put(k % 3L, new long[] {k});
        }
        assertThat(b.cache().writeBacks()).as("all still dirty in the cache").isZero();
        SnapshotImage full = SnapshotImage.write(b.snapshot(1, true), ALL);
        Checkpointed incremental = Checkpointed.take(storage, List.of(b), 2);

        for (boolean native_ : new boolean[] {false, true}) {
            List<RocksDbKeyedStateBackend> halves = backends.halves(base.resolve("rocksdb"), clock, 64,
                    native_ ? incremental::restoreInto : full::restoreInto);
            for (int k = 0; k < 1_000; k++) {
                RocksDbKeyedStateBackend owner = OpenedBackends.ownerOf(halves, k);
                owner.setCurrentKey(k);
                assertThat(counts(owner).value()).as("key %d, incremental %s", k, native_).isEqualTo(k);
                NamespacedState<Long, long[]> w = owner.namespacedState("windows");
                assertThat(w.get(k % 3L)).containsExactly(k);
            }
        }
    }

    @Test
    void dirtyEntries_stayBelowAnEighthOfTheCache_byWritingOtherKeysBackAheadOfTime() {
        RocksDbKeyedStateBackend b = backend(ALL, 4_096);
        ValueState<Integer> counts = counts(b);
        for (int k = 0; k < 3_000; k++) {
            b.setCurrentKey(k);
            counts.update(k);
            assertThat(b.cache().dirtyCount()).isLessThanOrEqualTo(4_096 / 8 + 4_096 / 32);
        }
        assertThat(b.cache().size()).as("nothing evicted").isEqualTo(3_000);
        assertThat(b.cache().writeBacks()).isGreaterThan(2_000);
        for (int k = 0; k < 3_000; k++) {
            b.setCurrentKey(k);
            assertThat(counts.value()).isEqualTo(k);
        }
        assertThat(b.entryCount()).isEqualTo(3_000);
    }

    @Test
    void writingBackAheadOfTime_takesTheOldestColdEntriesFirst_andSparesAHotOne() {
        RocksDbKeyedStateBackend b = backend(ALL, 4_096);
        ValueState<Integer> counts = counts(b);
        StateColumn column = b.createdState("counts");
        int hot = 1_000_000;
        for (int k = 0; k < 600; k++) {
            b.setCurrentKey(k);
            counts.update(k);
            b.setCurrentKey(hot);
            counts.update(k);
        }
        assertThat(b.cache().writeBacks()).as("past the dirty limit of 512").isGreaterThanOrEqualTo(128);
        long written = b.cache().writeBacks();
        for (int k = 0; k < written; k++) {
            assertThat(dirty(b, column, k)).as("key %d, among the %d oldest", k, written).isFalse();
        }
        for (int k = 600 - 64; k < 600; k++) {
            assertThat(dirty(b, column, k)).as("key %d, among the newest", k).isTrue();
        }
        assertThat(dirty(b, column, hot)).as("the key changed at every step").isTrue();
        b.setCurrentKey(hot);
        assertThat(counts.value()).isEqualTo(599);
    }

    @Test
    void writeBatchOrder_isByTheKeysFirstSixBytesUnsigned_thenByArrival() {
        long[] order = {
            WriteBackBatch.sortKey(new byte[] {(byte) 0x80, 0, 0, 0, 0, 0, 9}, 0),
            WriteBackBatch.sortKey(new byte[] {0x7F, (byte) 0xFF}, 1),
            WriteBackBatch.sortKey(new byte[] {0x7F}, 2),
            WriteBackBatch.sortKey(new byte[] {(byte) 0x80, 0, 0, 0, 0, 0, 1}, 3),
            WriteBackBatch.sortKey(new byte[] {0, 0, 0, 0, 0, 1}, 65_535),
        };
        Arrays.sort(order);
        int[] indices = Arrays.stream(order).mapToInt(o -> (int) o & 0xFFFF).toArray();
        assertThat(indices).containsExactly(65_535, 2, 1, 0, 3);
    }

    /** Whether the cached entry of {@code key}'s row of a single-row state is dirty (false when not cached). */
    private static boolean dirty(RocksDbKeyedStateBackend b, StateColumn column, int key) {
        b.setCurrentKey(key);
        byte[] bytes = b.currentKeyBytes();
        StateCache.Entry e = b.cache().find(column, bytes, bytes.length,
                StateCache.hash(StateCache.hashBytes(bytes, bytes.length), column));
        return e != null && e.dirty;
    }

    /** Records the fired event-time timers as "key@time". */
    private static final class Fired implements Triggerable<String> {
        final List<String> times = new ArrayList<>();
        RocksDbKeyedStateBackend backend;

        @Override
        public void onEventTime(long timestamp, String namespace) {
            times.add(backend.currentKey() + "@" + timestamp);
        }

        @Override
        public void onProcessingTime(long timestamp, String namespace) {
            throw new AssertionError("no processing-time timers here");
        }
    }

    @Test
    void timersBeyondTheHeapCache_andOnesOnlyInIt_allSurviveASnapshot_andFireInTimeOrder() throws Exception {
        RocksDbKeyedStateBackend b = backend(ALL, 64);
        Fired ignored = new Fired();
        InternalTimerService<String> timers = b.timerService("t", ignored);
        Random random = new Random(3);
        TreeSet<Long> expected = new TreeSet<>();
        for (int i = 0; i < 100 * TestBackends.TIMER_CACHE_ENTRIES; i++) {
            long time = random.nextInt(1_000_000) * 2L;
            b.setCurrentKey((int) (time % 97));
            timers.registerEventTimeTimer("w", time);
            expected.add(time);
            if (i % 5 == 0) {
                timers.deleteEventTimeTimer("w", time);
                expected.remove(time);
            }
        }
        assertThat(b.eventTimeTimerCount()).isEqualTo(expected.size());
        RocksDbKeyedStateBackend restored = backend(ALL, 64);
        SnapshotImage.write(b.snapshot(1, true), ALL).restoreInto(restored);
        Fired fired = new Fired();
        fired.backend = restored;
        restored.timerService("t", fired);
        restored.advanceWatermark(Long.MAX_VALUE);
        List<String> inOrder = new ArrayList<>();
        expected.forEach(t -> inOrder.add((int) (t % 97) + "@" + t));
        assertThat(fired.times).isEqualTo(inOrder);
    }
}
