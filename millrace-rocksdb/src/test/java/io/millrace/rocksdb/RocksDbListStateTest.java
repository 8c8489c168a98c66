package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.state.ListState;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.StateTtlConfig;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.checkpoint.LocalCheckpointStorage;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.SnapshotImage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** List state on RocksDB: appends are merges of element encodings, read back, checkpointed and rescaled intact. */
class RocksDbListStateTest {
    private static final KeyGroupRange ALL = new KeyGroupRange(0, 127);

    @TempDir
    Path base;

    private final ManualClock clock = new ManualClock(1_000);
    @RegisterExtension
    final OpenedBackends backends = new OpenedBackends();

    private RocksDbKeyedStateBackend backend(KeyGroupRange range) {
        return backend(range, RocksDbConfig.DEFAULT_CACHE_ENTRIES);
    }

    private RocksDbKeyedStateBackend backend(KeyGroupRange range, int cacheEntries) {
        return backends.rocksDb(base.resolve("rocksdb"), clock, range, cacheEntries);
    }

    private static ListState<Reading> readings(RocksDbKeyedStateBackend b) {
        return b.stateStore().getListState(new ListStateDescriptor<>("readings"));
    }

    record Reading(String sensor, double value) {}

    private static List<Reading> listOf(ListState<Reading> state) {
        List<Reading> out = new ArrayList<>();
        state.get().forEach(out::add);
        return out;
    }

    @Test
    void manyAppends_oneAtATimeAndInBatches_areReadBackInOrder_fromOneRow() {
        RocksDbKeyedStateBackend b = backend(ALL);
        ListState<Reading> state = readings(b);
        b.setCurrentKey("press");
        List<Reading> expected = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            Reading r = new Reading("s" + i % 7, i);
            expected.add(r);
            if (i % 100 == 99) {
                List<Reading> two = List.of(r, new Reading("batch", i));
                expected.add(two.get(1));
                state.addAll(two);
            } else {
                state.add(r);
            }
        }
        assertThat(listOf(state)).isEqualTo(expected);
        assertThat(b.entryCount()).isEqualTo(1);
        state.update(List.of(new Reading("only", 1)));
        state.add(new Reading("next", 2));
        assertThat(listOf(state)).containsExactly(new Reading("only", 1), new Reading("next", 2));
        state.clear();
        assertThat(listOf(state)).isEmpty();
    }

    @Test
    void appendedLists_surviveFullAndIncrementalSnapshots_restoredAtAnotherParallelism() throws Exception {
        RocksDbKeyedStateBackend b = backend(ALL);
        ListState<Reading> state = readings(b);
        for (int i = 0; i < 3_000; i++) {
            b.setCurrentKey(i % 50);
            state.add(new Reading("s", i));
        }
        SnapshotImage full = SnapshotImage.write(b.snapshot(1, true), ALL);
        Checkpointed incremental = Checkpointed.take(new LocalCheckpointStorage(base.resolve("checkpoints")), List.of(b), 2);
        for (boolean native_ : new boolean[] {false, true}) {
            List<RocksDbKeyedStateBackend> halves = backends.halves(base.resolve("rocksdb"), clock, RocksDbConfig.DEFAULT_CACHE_ENTRIES,
                    native_ ? incremental::restoreInto : full::restoreInto);
            for (int k = 0; k < 50; k++) {
                RocksDbKeyedStateBackend owner = OpenedBackends.ownerOf(halves, k);
                owner.setCurrentKey(k);
                List<Reading> expected = new ArrayList<>();
                for (int i = k; i < 3_000; i += 50) {
                    expected.add(new Reading("s", i));
                }
                ListState<Reading> restored = readings(owner);
                assertThat(listOf(restored)).as("key %d, incremental %s", k, native_).isEqualTo(expected);
                restored.add(new Reading("after", k));
                assertThat(listOf(restored)).hasSize(expected.size() + 1).last().isEqualTo(new Reading("after", k));
            }
        }
    }

    @Test
    void appendsToListsOutsideATinyCache_areMergedOnEviction_andReadBackInOrder() {
        RocksDbKeyedStateBackend b = backend(ALL, StateCache.MIN_ENTRIES);
        ListState<Reading> state = readings(b);
        for (int i = 0; i < 2_000; i++) {
            b.setCurrentKey(i % 40);
            state.add(new Reading("s", i));
            if (i % 250 == 0) {
                b.flush();
            }
        }
        assertThat(b.cache().writeBacks()).isGreaterThan(1_000);
        for (int k = 0; k < 40; k++) {
            b.setCurrentKey(k);
            List<Reading> expected = new ArrayList<>();
            for (int i = k; i < 2_000; i += 40) {
                expected.add(new Reading("s", i));
            }
            assertThat(listOf(state)).as("key %d", k).isEqualTo(expected);
        }
    }

    @Test
    void appendsOfAListNeverRead_acrossSeveralFlushes_areEachWrittenOnce() throws Exception {
        RocksDbKeyedStateBackend b = backend(ALL);
        ListState<Reading> state = readings(b);
        b.setCurrentKey("press");
        for (int i = 0; i < 3; i++) {
            state.add(new Reading("s", i));
            b.flush();
        }
        RocksDbKeyedStateBackend direct = backend(ALL, 0);
        SnapshotImage.take(b).restoreInto(direct);
        ListState<Reading> restored = readings(direct);
        direct.setCurrentKey("press");
        assertThat(listOf(restored)).containsExactly(new Reading("s", 0), new Reading("s", 1), new Reading("s", 2));
        assertThat(listOf(state)).containsExactly(new Reading("s", 0), new Reading("s", 1), new Reading("s", 2));
    }

    @Test
    void aRowWrittenAsOneSerializedList_beforeAppendsWereMerges_isReadAndAppendedTo() {
        RocksDbKeyedStateBackend b = backend(ALL, 0);
        ListState<Reading> state = readings(b);
        b.setCurrentKey("press");
        StateColumn column = b.createdState("readings");
        byte[] oldFormat = column.encode(new ArrayList<>(List.of(new Reading("a", 1), new Reading("b", 2))));
        assertThat(oldFormat[0] & 0xFF).isNotEqualTo(ListRows.ELEMENT);
        b.stateColumn("readings").put(b.currentKeyBytes(), oldFormat);

        assertThat(listOf(state)).containsExactly(new Reading("a", 1), new Reading("b", 2));
        state.add(new Reading("c", 3));
        assertThat(listOf(state)).containsExactly(new Reading("a", 1), new Reading("b", 2), new Reading("c", 3));
    }

    @Test
    void aListWithTtl_isRenewedByAnAppend_andExpiresAsAWhole() {
        RocksDbKeyedStateBackend b = backend(ALL);
        @SuppressWarnings("unchecked")
        ListState<Reading> state = b.stateStore().getListState((ListStateDescriptor<Reading>) new ListStateDescriptor<Reading>("recent")
                .enableTimeToLive(StateTtlConfig.afterWrite(Duration.ofMillis(100))));
        b.setCurrentKey("press");
        state.add(new Reading("a", 1));
        clock.set(1_080);
        state.add(new Reading("b", 2));
        clock.set(1_150);
        assertThat(listOf(state)).containsExactly(new Reading("a", 1), new Reading("b", 2));
        clock.set(1_180);
        assertThat(listOf(state)).isEmpty();
        state.add(new Reading("c", 3));
        assertThat(listOf(state)).containsExactly(new Reading("c", 3));
    }
}
