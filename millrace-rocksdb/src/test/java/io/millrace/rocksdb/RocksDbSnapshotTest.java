package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.state.AggregatingState;
import io.millrace.api.state.AggregatingStateDescriptor;
import io.millrace.api.state.ListState;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ReducingState;
import io.millrace.api.state.ReducingStateDescriptor;
import io.millrace.api.state.StateDescriptor;
import io.millrace.api.state.StateTtlConfig;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.InternalTimerService;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateSnapshot;
import io.millrace.runtime.state.NamespacedState;
import io.millrace.runtime.state.SnapshotImage;
import io.millrace.runtime.state.Triggerable;
import io.millrace.runtime.state.heap.HeapKeyedStateBackend;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Full snapshots of the RocksDB backend: round trip of every state kind, isolation, TTL, timers, release. */
class RocksDbSnapshotTest {
    private static final KeyGroupRange ALL = new KeyGroupRange(0, 127);

    @TempDir
    Path base;

    private final ManualClock clock = new ManualClock(1_000);
    @RegisterExtension
    final OpenedBackends backends = new OpenedBackends();

    private RocksDbKeyedStateBackend backend() {
        return backends.rocksDb(base, clock, ALL, TestBackends.CONFIG.cacheEntries());
    }

    /** Records fired timers as "key/namespace@time". */
    static final class Recorder implements Triggerable<String> {
        final List<String> fired = new ArrayList<>();
        RocksDbKeyedStateBackend backend;

        @Override
        public void onEventTime(long timestamp, String namespace) {
            fired.add("event " + backend.currentKey() + "/" + namespace + "@" + timestamp);
        }

        @Override
        public void onProcessingTime(long timestamp, String namespace) {
            fired.add("processing " + backend.currentKey() + "/" + namespace + "@" + timestamp);
        }
    }

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
            return acc[1] == 0 ? null : (double) acc[0] / acc[1];
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            a[0] += b[0];
            a[1] += b[1];
            return a;
        }
    }

    private record States(ValueState<String> value, ListState<Integer> list, MapState<String, Long> map,
            ReducingState<Long> sum, AggregatingState<Long, Double> avg, NamespacedState<String, long[]> windows) {
        static States of(RocksDbKeyedStateBackend b) {
            return new States(
                    b.stateStore().getState(new ValueStateDescriptor<>("value")),
                    b.stateStore().getListState(new ListStateDescriptor<>("list")),
                    b.stateStore().getMapState(new MapStateDescriptor<>("map")),
                    b.stateStore().getReducingState(new ReducingStateDescriptor<>("sum", Long::sum)),
                    b.stateStore().getAggregatingState(new AggregatingStateDescriptor<>("avg", new Average())),
                    b.namespacedState("windows"));
        }

        String describe(RocksDbKeyedStateBackend b, Object key) {
            b.setCurrentKey(key);
            List<String> ns = new ArrayList<>();
            windows.forEach((n, acc) -> ns.add(n + ":" + acc[0]));
            ns.sort(null);
            List<Integer> items = new ArrayList<>();
            list.get().forEach(items::add);
            Map<String, Long> entries = new HashMap<>();
            try {
                map.entries().forEach(e -> entries.put(e.getKey(), e.getValue()));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return value.value() + " " + items + " " + new java.util.TreeMap<>(entries) + " " + sum.get() + " " + avg.get() + " " + ns;
        }
    }

    private static <D extends StateDescriptor<?>> D withTtl(D descriptor) {
        descriptor.enableTimeToLive(StateTtlConfig.afterWrite(Duration.ofMillis(100)));
        return descriptor;
    }

    private static void fill(RocksDbKeyedStateBackend b, States s, int keys) throws Exception {
        for (int k = 0; k < keys; k++) {
            Object key = k % 2 == 0 ? k : "key-" + k;
            b.setCurrentKey(key);
            s.value.update("v" + k);
            s.list.add(k);
            s.list.add(k + 1);
            s.map.put("a", (long) k);
            s.map.put("b", (long) -k);
            s.sum.add((long) k);
            s.sum.add(1L);
            s.avg.add((long) k);
            s.avg.add((long) k + 2);
            long[] acc = s.windows.get("w1");
            if (acc == null) {
                acc = new long[1];
                s.windows.put("w1", acc);
            }
            acc[0] += k; // changed in place: reaches RocksDB only through the write-back flush
            s.windows.put("w2", new long[] {7});
        }
    }

    @Test
    void everyStateKind_andTimersOfBothDomains_surviveASnapshotAndRestore() throws Exception {
        RocksDbKeyedStateBackend before = backend();
        States s = States.of(before);
        Recorder beforeTimers = new Recorder();
        beforeTimers.backend = before;
        InternalTimerService<String> timers = before.timerService("timers", beforeTimers);
        fill(before, s, 300);
        for (int k = 0; k < 300; k += 3) {
            before.setCurrentKey(k);
            timers.registerEventTimeTimer("e", 10_000 + k);
            timers.registerProcessingTimeTimer("p", 2_000 + k);
        }
        List<String> expected = new ArrayList<>();
        for (int k = 0; k < 300; k++) {
            expected.add(s.describe(before, k % 2 == 0 ? k : "key-" + k));
        }
        SnapshotImage image = SnapshotImage.take(before);

        RocksDbKeyedStateBackend after = backend();
        image.restoreInto(after);
        assertThat(after.unclaimedRestoredNames()).containsExactly("avg", "list", "map", "sum", "timers", "value", "windows");
        States r = States.of(after);
        Recorder afterTimers = new Recorder();
        afterTimers.backend = after;
        after.timerService("timers", afterTimers);
        assertThat(after.unclaimedRestoredNames()).isEmpty();
        List<String> restored = new ArrayList<>();
        for (int k = 0; k < 300; k++) {
            restored.add(r.describe(after, k % 2 == 0 ? k : "key-" + k));
        }
        assertThat(restored).isEqualTo(expected);
        assertThat(after.entryCount()).isEqualTo(before.entryCount());
        assertThat(after.eventTimeTimerCount()).isEqualTo(100);
        assertThat(after.processingTimeTimerCount()).isEqualTo(100);

        before.advanceWatermark(Long.MAX_VALUE);
        before.advanceProcessingTime(Long.MAX_VALUE);
        after.advanceWatermark(Long.MAX_VALUE);
        after.advanceProcessingTime(Long.MAX_VALUE);
        assertThat(afterTimers.fired).hasSize(200).isEqualTo(beforeTimers.fired);
    }

    @Test
    void changesAfterTheSnapshot_doNotShowInWhatItWrites() throws Exception {
        RocksDbKeyedStateBackend b = backend();
        States s = States.of(b);
        Recorder recorder = new Recorder();
        recorder.backend = b;
        InternalTimerService<String> timers = b.timerService("timers", recorder);
        fill(b, s, 50);
        b.setCurrentKey(4);
        timers.registerEventTimeTimer("e", 500);
        long[] held = s.windows.get("w1");
        String atSnapshot = s.describe(b, 4);
        KeyedStateSnapshot snapshot = b.snapshot(7);

        held[0] += 1_000_000; // in-place change of a handed-out namespaced value
        s.value.update("changed");
        s.list.add(99);
        s.map.remove("a");
        s.sum.add(1_000L);
        s.windows.put("w3", new long[] {3});
        timers.deleteEventTimeTimer("e", 500);
        timers.registerEventTimeTimer("e", 600);
        b.setCurrentKey(0);
        s.value.clear();
        b.setCurrentKey("new-key");
        s.value.update("new");
        b.compact();

        SnapshotImage image = SnapshotImage.write(snapshot, ALL);
        RocksDbKeyedStateBackend after = backend();
        image.restoreInto(after);
        States r = States.of(after);
        Recorder afterTimers = new Recorder();
        afterTimers.backend = after;
        after.timerService("timers", afterTimers);
        assertThat(r.describe(after, 4)).isEqualTo(atSnapshot);
        after.setCurrentKey(0);
        assertThat(r.value.value()).isEqualTo("v0");
        after.setCurrentKey("new-key");
        assertThat(r.value.value()).isNull();
        after.advanceWatermark(Long.MAX_VALUE);
        assertThat(afterTimers.fired).containsExactly("event 4/e@500");
    }

    @Test
    void ttlExpiries_continueAsCheckpointed_andTtlSwitchedOnOrOff_convertsTheRows() throws Exception {
                RocksDbKeyedStateBackend before = backend();
        ValueState<String> v = before.stateStore().getState(withTtl(new ValueStateDescriptor<String>("v")));
        MapState<String, Integer> m = before.stateStore().getMapState(withTtl(new MapStateDescriptor<String, Integer>("m")));
        ValueState<String> plain = before.stateStore().getState(new ValueStateDescriptor<>("plain"));
        before.setCurrentKey("early");
        v.update("e");
        m.put("x", 1);
        plain.update("p");
        clock.advance(Duration.ofMillis(60));
        before.setCurrentKey("late");
        v.update("l");
        m.put("x", 2);
        SnapshotImage image = SnapshotImage.take(before);

        RocksDbKeyedStateBackend kept = backend();
        image.restoreInto(kept);
        ValueState<String> kv = kept.stateStore().getState(withTtl(new ValueStateDescriptor<String>("v")));
        MapState<String, Integer> km = kept.stateStore().getMapState(withTtl(new MapStateDescriptor<String, Integer>("m")));
        clock.advance(Duration.ofMillis(50)); // 110 ms after "early" was written, 50 ms after "late"
        kept.setCurrentKey("early");
        assertThat(kv.value()).isNull();
        assertThat(km.get("x")).isNull();
        kept.setCurrentKey("late");
        assertThat(kv.value()).isEqualTo("l");
        assertThat(km.get("x")).isEqualTo(2);

        RocksDbKeyedStateBackend switched = backend();
        image.restoreInto(switched);
        ValueState<String> withoutTtl = switched.stateStore().getState(new ValueStateDescriptor<>("v"));
        ValueState<String> withTtl = switched.stateStore().getState(withTtl(new ValueStateDescriptor<String>("plain")));
        switched.setCurrentKey("early");
        assertThat(withoutTtl.value()).as("TTL switched off: the row stays").isEqualTo("e");
        assertThat(withTtl.value()).as("TTL switched on: a fresh TTL from the restore").isEqualTo("p");
        clock.advance(Duration.ofMillis(101));
        assertThat(withTtl.value()).isNull();
        assertThat(withoutTtl.value()).isEqualTo("e");
    }

    @Test
    void expiredRestoredRows_nobodyReads_areRemovedByTheSweep() throws Exception {
        RocksDbKeyedStateBackend before = backend();
        ValueState<Integer> v = before.stateStore().getState(withTtl(new ValueStateDescriptor<Integer>("v")));
        for (int k = 0; k < 500; k++) {
            before.setCurrentKey(k);
            v.update(k);
        }
        SnapshotImage image = SnapshotImage.take(before);
        RocksDbKeyedStateBackend after = backend();
        image.restoreInto(after);
        after.stateStore().getState(withTtl(new ValueStateDescriptor<Integer>("v")));
        assertThat(after.entryCount()).isEqualTo(500);
        clock.advance(Duration.ofMillis(101));
        after.advanceProcessingTime(clock.millis());
        assertThat(after.entryCount()).isZero();
    }

    @Test
    void restoredStateNotYetCreated_isCarriedIntoTheNextSnapshot() throws Exception {
        RocksDbKeyedStateBackend first = backend();
        ValueState<Integer> v = first.stateStore().getState(new ValueStateDescriptor<>("later"));
        first.setCurrentKey("k");
        v.update(42);
        SnapshotImage one = SnapshotImage.take(first);

        RocksDbKeyedStateBackend second = backend();
        one.restoreInto(second);
        SnapshotImage two = SnapshotImage.take(second);
        assertThat(second.unclaimedRestoredNames()).containsExactly("later");

        RocksDbKeyedStateBackend third = backend();
        two.restoreInto(third);
        ValueState<Integer> r = third.stateStore().getState(new ValueStateDescriptor<>("later"));
        third.setCurrentKey("k");
        assertThat(r.value()).isEqualTo(42);
    }

    @Test
    void restoringAsAnotherKind_failsNamingTheState() throws Exception {
        RocksDbKeyedStateBackend first = backend();
        first.stateStore().getState(new ValueStateDescriptor<Integer>("s"));
        first.setCurrentKey("k");
        first.stateStore().getState(new ValueStateDescriptor<Integer>("s")).update(1);
        SnapshotImage image = SnapshotImage.take(first);
        RocksDbKeyedStateBackend second = backend();
        image.restoreInto(second);
        assertThatThrownBy(() -> second.stateStore().getListState(new ListStateDescriptor<Integer>("s")))
                .hasMessageContaining("state 's': the job registers it as list state, but the checkpoint or savepoint holds value state");
    }

    @Test
    void aHeapSection_isRestoredAsCanonicalState() throws Exception {
        HeapKeyedStateBackend heap = new HeapKeyedStateBackend(ALL, 128, clock);
        heap.setCurrentKey("k");
        heap.stateStore().getState(new ValueStateDescriptor<Integer>("s")).update(1);
        SnapshotImage image = SnapshotImage.take(heap);
        RocksDbKeyedStateBackend restored = backend();
        image.restoreInto(restored);
        ValueState<Integer> s = restored.stateStore().getState(new ValueStateDescriptor<>("s"));
        restored.setCurrentKey("k");
        assertThat(s.value()).isEqualTo(1);
    }

    @Test
    void closingTheBackend_releasesUnwrittenSnapshots_andAWriteAfterwardsFailsCleanly() throws Exception {
        RocksDbKeyedStateBackend b = backend();
        ValueState<Integer> v = b.stateStore().getState(new ValueStateDescriptor<>("v"));
        b.setCurrentKey("k");
        v.update(1);
        KeyedStateSnapshot unwritten = b.snapshot(1);
        KeyedStateSnapshot written = b.snapshot(2);
        SnapshotImage.write(written, ALL);
        b.close();
        assertThatThrownBy(() -> unwritten.write(new DataOutputStream(new ByteArrayOutputStream()), () -> 0, new long[128]))
                .isInstanceOf(IOException.class).hasMessageContaining("closed");
        unwritten.release();
        unwritten.release();
        try (Stream<Path> left = Files.list(base)) {
            assertThat(left).isEmpty();
        }
    }
}
