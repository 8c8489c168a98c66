package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.state.AggregatingState;
import io.millrace.api.state.AggregatingStateDescriptor;
import io.millrace.api.state.KeyedStateStore;
import io.millrace.api.state.ListState;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ReducingState;
import io.millrace.api.state.ReducingStateDescriptor;
import io.millrace.api.state.StateTtlConfig;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.checkpoint.LocalCheckpointStorage;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.NamespacedState;
import io.millrace.runtime.state.heap.HeapKeyedStateBackend;
import io.millrace.runtime.state.SnapshotImage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded random operations on every kind of state, on a RocksDB backend with a tiny state cache (so entries
 * are evicted and written back all the time), or with the cache off, and on the heap backend side by side,
 * with snapshots and restores into fresh backends in between (RocksDB alternately full and incremental):
 * every observation must be equal.
 */
class RocksDbCacheModelTest {
    private static final KeyGroupRange ALL = new KeyGroupRange(0, 127);

    @TempDir
    Path base;

    private final ManualClock clock = new ManualClock(1_000);
    @RegisterExtension
    final OpenedBackends backends = new OpenedBackends();
    private int cacheEntries = StateCache.MIN_ENTRIES;

    /** Count and sum of the added values, changed in place. */
    static final class CountSum implements AggregateFunction<Integer, long[], Long> {
        @Override
        public long[] createAccumulator() {
            return new long[2];
        }

        @Override
        public long[] add(Integer value, long[] acc) {
            acc[0]++;
            acc[1] += value;
            return acc;
        }

        @Override
        public Long getResult(long[] acc) {
            return acc[0] * 1_000_000 + acc[1];
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            a[0] += b[0];
            a[1] += b[1];
            return a;
        }
    }

    /** The states of one backend. */
    private static final class States {
        final KeyedStateBackend backend;
        final ValueState<Integer> value;
        final ValueState<Integer> touched;
        final ReducingState<Integer> sum;
        final AggregatingState<Integer, Long> countSum;
        final ListState<Integer> list;
        final MapState<Integer, String> map;
        final NamespacedState<Long, long[]> windows;

        @SuppressWarnings("unchecked")
        States(KeyedStateBackend backend) {
            this.backend = backend;
            KeyedStateStore store = backend.stateStore();
            value = store.getState(new ValueStateDescriptor<>("value"));
            touched = store.getState((ValueStateDescriptor<Integer>) new ValueStateDescriptor<Integer>("touched")
                    .enableTimeToLive(StateTtlConfig.afterAccess(Duration.ofMillis(30))));
            sum = store.getReducingState(new ReducingStateDescriptor<>("sum", Integer::sum));
            countSum = store.getAggregatingState(new AggregatingStateDescriptor<>("count-sum", new CountSum()));
            list = store.getListState(new ListStateDescriptor<>("list"));
            map = store.getMapState(new MapStateDescriptor<>("map"));
            windows = backend.namespacedState("windows");
        }
    }

    @Test
    void randomOperations_onATinyCacheOrNone_matchTheHeapBackend_acrossFullAndIncrementalRestores() throws Exception {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(base.resolve("checkpoints"));
        for (long seed = 1; seed <= 3; seed++) {
            Random random = new Random(seed);
            cacheEntries = seed == 3 ? 0 : StateCache.MIN_ENTRIES;
            States rocks = new States(rocksDb());
            States heap = new States(heap());
            for (int op = 0; op < 6_000; op++) {
                int key = random.nextInt(120);
                rocks.backend.setCurrentKey(key);
                heap.backend.setCurrentKey(key);
                int x = random.nextInt(1_000);
                int kind = random.nextInt(22);
                if (kind == 20) {
                    clock.set(clock.millis() + x % 7);
                }
                assertThat(apply(rocks, kind, x)).as("seed %d (cache %d), op %d, kind %d, key %d", seed, cacheEntries, op, kind, key)
                        .isEqualTo(apply(heap, kind, x));
                if (op % 1_000 == 999) {
                    rocks.backend.setCurrentKey(null);
                    heap.backend.setCurrentKey(null);
                    rocks = new States(restoreRocksDb(rocks.backend, storage, seed * 100 + op / 1_000, op % 2_000 == 999));
                    heap = new States(restoreHeap(heap.backend));
                }
            }
        }
    }

    /** Applies operation {@code kind} to the current key; returns what it observed (null for writes). */
    private Object apply(States s, int kind, int x) throws Exception {
        switch (kind) {
            case 0, 1 -> s.value.update(x);
            case 2 -> s.value.clear();
            case 3 -> {
                return s.value.value();
            }
            case 4 -> s.sum.add(x);
            case 5 -> {
                return s.sum.get();
            }
            case 6 -> s.countSum.add(x);
            case 7 -> {
                return s.countSum.get();
            }
            case 8 -> s.list.add(x);
            case 9 -> s.list.addAll(List.of(x, x + 1));
            case 10 -> {
                return listOf(s.list.get());
            }
            case 11 -> s.list.update(x % 5 == 0 ? List.of() : List.of(x));
            case 12 -> s.map.put(x % 7, "v" + x);
            case 13 -> s.map.remove(x % 7);
            case 14 -> {
                TreeMap<Integer, String> entries = new TreeMap<>();
                s.map.entries().forEach(e -> entries.put(e.getKey(), e.getValue()));
                return entries;
            }
            case 15 -> {
                long[] acc = s.windows.get((long) (x % 4));
                if (acc == null) {
                    s.windows.put((long) (x % 4), new long[] {x});
                } else {
                    acc[0] += x;
                }
            }
            case 16 -> s.windows.remove((long) (x % 4));
            case 17 -> {
                TreeMap<Long, Long> seen = new TreeMap<>();
                s.windows.forEach((ns, acc) -> seen.put(ns, acc[0]));
                return seen;
            }
            case 18 -> s.touched.update(x);
            case 19 -> {
                return s.touched.value();
            }
            case 20 -> s.backend.advanceProcessingTime(clock.millis());
            default -> {
                if (x % 10 == 0) {
                    s.sum.clear();
                    s.countSum.clear();
                    s.windows.clear();
                    s.map.clear();
                }
            }
        }
        return null;
    }

    private static List<Integer> listOf(Iterable<Integer> values) {
        List<Integer> out = new ArrayList<>();
        values.forEach(out::add);
        return out;
    }

    private RocksDbKeyedStateBackend rocksDb() {
        return backends.rocksDb(base.resolve("rocksdb"), clock, ALL, cacheEntries);
    }

    private HeapKeyedStateBackend heap() {
        return backends.track(new HeapKeyedStateBackend(ALL, 128, clock));
    }

    private KeyedStateBackend restoreRocksDb(KeyedStateBackend from, LocalCheckpointStorage storage, long id, boolean incremental)
            throws Exception {
        KeyedStateBackend to = rocksDb();
        if (incremental) {
            Checkpointed.take(storage, List.of((RocksDbKeyedStateBackend) from), id).restoreInto(to);
        } else {
            SnapshotImage.write(from.snapshot(id, true), ALL).restoreInto(to);
        }
        close(from);
        return to;
    }

    private KeyedStateBackend restoreHeap(KeyedStateBackend from) throws Exception {
        KeyedStateBackend to = heap();
        SnapshotImage.take(from).restoreInto(to);
        close(from);
        return to;
    }

    private void close(KeyedStateBackend b) {
        backends.close(b);
    }

    @Test
    void theTinyCache_evictsAndWritesBack_whileTheModelRuns() {
        RocksDbKeyedStateBackend b = rocksDb();
        States s = new States(b);
        for (int k = 0; k < 500; k++) {
            b.setCurrentKey(k);
            s.value.update(k);
            s.windows.put(1L, new long[] {k});
        }
        assertThat(b.cache().size()).isLessThanOrEqualTo(StateCache.MIN_ENTRIES);
        assertThat(b.cache().writeBacks()).isGreaterThanOrEqualTo(2 * 500 - StateCache.MIN_ENTRIES);
        for (int k = 0; k < 500; k++) {
            b.setCurrentKey(k);
            assertThat(s.value.value()).isEqualTo(k);
            assertThat(s.windows.get(1L)).containsExactly(k);
        }
        assertThat(b.entryCount()).isEqualTo(1_000);
    }
}
