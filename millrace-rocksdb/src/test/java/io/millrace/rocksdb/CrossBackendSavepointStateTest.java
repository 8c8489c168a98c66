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
import io.millrace.api.state.StateTtlConfig;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.InternalTimerService;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.NamespacedState;
import io.millrace.runtime.state.SnapshotImage;
import io.millrace.runtime.state.Triggerable;
import io.millrace.runtime.state.heap.HeapKeyedStateBackend;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A savepoint of every state kind (value, list, map, reducing, aggregating, with and without TTL, namespaced) and
 * of both kinds of timers, taken on one backend and restored on the other at another parallelism: every key reads
 * what it held, TTL counts from the original writes, and every timer fires once, in both directions.
 */
class CrossBackendSavepointStateTest {
    static final int MAX_PARALLELISM = 128;
    static final int KEYS = 300;
    static final long START = 1_000_000L;
    static final Duration TTL = Duration.ofMinutes(60);

    /** A record value, so that the sections' shape tables are exercised. */
    public record Reading(String machine, double value, long at) {}

    /** Counts its inputs. */
    static final class Count implements AggregateFunction<Long, Long, Long> {
        @Override
        public Long createAccumulator() {
            return 0L;
        }

        @Override
        public Long add(Long value, Long acc) {
            return acc + 1;
        }

        @Override
        public Long getResult(Long acc) {
            return acc;
        }

        @Override
        public Long merge(Long a, Long b) {
            return a + b;
        }
    }

    /** Records fired timers as "key/namespace@time" (event time) or "key/namespace#time" (processing time). */
    static final class Fired implements Triggerable<String> {
        final List<String> fired = new ArrayList<>();
        KeyedStateBackend backend;

        @Override
        public void onEventTime(long timestamp, String namespace) {
            fired.add(backend.currentKey() + "/" + namespace + "@" + timestamp);
        }

        @Override
        public void onProcessingTime(long timestamp, String namespace) {
            fired.add(backend.currentKey() + "/" + namespace + "#" + timestamp);
        }
    }

    /** The states of the test, registered the same way on every backend. */
    static final class States {
        final KeyedStateBackend backend;
        final ValueState<Reading> last;
        final ListState<Long> values;
        final ListState<String> notes;
        final MapState<String, Reading> byMachine;
        final ReducingState<Long> sum;
        final AggregatingState<Long, Long> count;
        final NamespacedState<Long, String> windows;
        final InternalTimerService<String> timers;
        final Fired fired = new Fired();

        States(KeyedStateBackend backend) {
            this.backend = backend;
            ValueStateDescriptor<Reading> lastD = new ValueStateDescriptor<>("last");
            lastD.enableTimeToLive(StateTtlConfig.afterWrite(TTL));
            last = backend.stateStore().getState(lastD);
            values = backend.stateStore().getListState(new ListStateDescriptor<>("values"));
            ListStateDescriptor<String> notesD = new ListStateDescriptor<>("notes");
            notesD.enableTimeToLive(StateTtlConfig.afterWrite(TTL));
            notes = backend.stateStore().getListState(notesD);
            MapStateDescriptor<String, Reading> mapD = new MapStateDescriptor<>("by-machine");
            mapD.enableTimeToLive(StateTtlConfig.afterWrite(TTL));
            byMachine = backend.stateStore().getMapState(mapD);
            sum = backend.stateStore().getReducingState(new ReducingStateDescriptor<>("sum", Long::sum));
            count = backend.stateStore().getAggregatingState(new AggregatingStateDescriptor<>("count", new Count()));
            windows = backend.namespacedState("windows");
            fired.backend = backend;
            timers = backend.timerService("timers", fired);
        }

        /** What the state of the current key reads, as one comparable text. */
        String describe() {
            Map<String, Reading> map = new TreeMap<>();
            for (Map.Entry<String, Reading> e : byMachine.entries()) {
                map.put(e.getKey(), e.getValue());
            }
            Map<Long, String> ns = new TreeMap<>();
            windows.forEach(ns::put);
            return last.value() + " " + list(values.get()) + " " + list(notes.get()) + " " + map + " " + sum.get() + " "
                    + count.get() + " " + ns;
        }

        private static <T> List<T> list(Iterable<T> items) {
            List<T> out = new ArrayList<>();
            if (items != null) {
                items.forEach(out::add);
            }
            return out;
        }
    }

    @TempDir
    Path base;

    private final List<KeyedStateBackend> opened = new ArrayList<>();

    @AfterEach
    void closeBackends() {
        opened.forEach(KeyedStateBackend::close);
    }

    private KeyedStateBackend heap(KeyGroupRange range, ManualClock clock) {
        KeyedStateBackend b = new HeapKeyedStateBackend("cross", range, MAX_PARALLELISM, clock);
        opened.add(b);
        return b;
    }

    private KeyedStateBackend rocksDb(KeyGroupRange range, ManualClock clock) {
        KeyedStateBackend b = new RocksDbKeyedStateBackend("cross", range, MAX_PARALLELISM, clock,
                TestBackends.CONFIG.withBaseDirectory(base));
        opened.add(b);
        return b;
    }

    /** Writes seeded random state for every key into {@code s}; returns the timers registered, as {@link Fired} names them. */
    private static List<String> fill(States s, ManualClock clock, long seed) {
        Random random = new Random(seed);
        List<String> timers = new ArrayList<>();
        for (long key = 0; key < KEYS; key++) {
            s.backend.setCurrentKey(key);
            clock.advance(Duration.ofMillis(random.nextInt(1000))); // TTL expiries differ from key to key
            if (random.nextInt(4) > 0) {
                s.last.update(new Reading("m" + random.nextInt(7), random.nextGaussian(), clock.millis()));
            }
            for (int i = random.nextInt(4); i > 0; i--) {
                s.values.add((long) random.nextInt(1000));
                s.sum.add((long) random.nextInt(100));
                s.count.add(1L);
            }
            if (random.nextBoolean()) {
                s.notes.add("note " + key);
            }
            for (int i = random.nextInt(3); i > 0; i--) {
                s.byMachine.put("m" + random.nextInt(5), new Reading("m" + key, random.nextDouble(), clock.millis()));
            }
            if (random.nextInt(3) == 0) {
                s.windows.put((long) random.nextInt(10) * 1000, "window of " + key);
            }
            if (random.nextInt(3) == 0) {
                long at = 5_000 + random.nextInt(1000);
                s.timers.registerEventTimeTimer("e", at);
                timers.add(key + "/e@" + at);
            }
            if (random.nextInt(4) == 0) {
                long at = START + 1_000_000 + random.nextInt(1000);
                s.timers.registerProcessingTimeTimer("p", at);
                timers.add(key + "/p#" + at);
            }
        }
        return timers;
    }

    private static Map<Long, String> read(List<States> parts) {
        Map<Long, String> out = new TreeMap<>();
        for (long key = 0; key < KEYS; key++) {
            int group = KeyGroups.keyGroupFor(key, MAX_PARALLELISM);
            for (States s : parts) {
                if (s.backend.keyGroupRange().contains(group)) {
                    s.backend.setCurrentKey(key);
                    out.put(key, s.describe());
                }
            }
        }
        return out;
    }

    /** Fails listing the first keys whose states differ (the whole maps are too long to read). */
    private static void assertSameStates(Map<Long, String> actual, Map<Long, String> expected, String what) {
        List<String> differences = new ArrayList<>();
        for (Map.Entry<Long, String> e : expected.entrySet()) {
            String found = actual.get(e.getKey());
            if (!e.getValue().equals(found) && differences.size() < 3) {
                differences.add("key " + e.getKey() + ": expected " + e.getValue() + ", found " + found);
            }
        }
        assertThat(differences).as(what).isEmpty();
        assertThat(actual.keySet()).as(what).isEqualTo(expected.keySet());
    }

    private interface BackendMaker {
        KeyedStateBackend make(KeyGroupRange range, ManualClock clock);
    }

    private void crossRestore(BackendMaker from, BackendMaker to) throws Exception {
        ManualClock clock = new ManualClock(START);
        KeyedStateBackend source = from.make(new KeyGroupRange(0, MAX_PARALLELISM - 1), clock);
        States written = new States(source);
        List<String> timers = fill(written, clock, 31);
        Map<Long, String> expected = read(List.of(written));
        SnapshotImage savepoint = SnapshotImage.write(source.snapshot(7, true), source.keyGroupRange());

        ManualClock later = new ManualClock(clock.millis());
        List<States> restored = new ArrayList<>();
        for (KeyGroupRange range : List.of(new KeyGroupRange(0, 40), new KeyGroupRange(41, 90), new KeyGroupRange(91, 127))) {
            KeyedStateBackend target = to.make(range, later);
            savepoint.restoreInto(target);
            restored.add(new States(target));
        }

        assertSameStates(read(restored), expected, "every key's state after the restore");
        List<String> fired = new ArrayList<>();
        for (States s : restored) {
            s.backend.advanceWatermark(Long.MAX_VALUE);
            s.backend.advanceProcessingTime(START + 2_000_000); // before any TTL ends: a sweep removes nothing
            fired.addAll(s.fired.fired);
        }
        assertThat(fired).as("timers fired after the restore").containsExactlyInAnyOrderElementsOf(timers);

        later.advance(TTL.minusSeconds(600)); // before the earliest expiry: every entry with TTL still there
        assertSameStates(read(restored), expected, "every key's state before the TTL ends");
        later.advance(Duration.ofSeconds(600 + 10_000)); // after the last expiry
        TreeSet<String> afterTtl = new TreeSet<>();
        for (String state : read(restored).values()) {
            afterTtl.add(state.substring(0, state.indexOf(' '))); // the value state "last" has TTL
        }
        assertThat(afterTtl).as("TTL counted from the original writes").containsExactly("null");
    }

    @Test
    void heapSavepoint_restoresOnRocksDbAtAnotherParallelism_withEveryStateKindTtlAndTimers() throws Exception {
        crossRestore(this::heap, this::rocksDb);
    }

    @Test
    void rocksDbSavepoint_restoresOnHeapAtAnotherParallelism_withEveryStateKindTtlAndTimers() throws Exception {
        crossRestore(this::rocksDb, this::heap);
    }

    @Test
    void rocksDbSavepoint_restoresOnRocksDb_andHeapOnHeap() throws Exception {
        crossRestore(this::rocksDb, this::rocksDb);
        crossRestore(this::heap, this::heap);
    }

    @Test
    void stateRegisteredWithAnotherKind_failsNamingOperatorStateAndBothKinds() throws Exception {
        for (BackendMaker[] pair : new BackendMaker[][] {{this::heap, this::rocksDb}, {this::rocksDb, this::heap}}) {
            ManualClock clock = new ManualClock(START);
            KeyedStateBackend source = pair[0].make(new KeyGroupRange(0, MAX_PARALLELISM - 1), clock);
            States written = new States(source);
            fill(written, clock, 5);
            SnapshotImage savepoint = SnapshotImage.write(source.snapshot(7, true), source.keyGroupRange());
            KeyedStateBackend target = pair[1].make(new KeyGroupRange(0, MAX_PARALLELISM - 1), clock);
            savepoint.restoreInto(target);
            assertThatThrownBy(() -> target.stateStore().getState(new ValueStateDescriptor<>("sum")))
                    .hasMessageContaining("'cross'").hasMessageContaining("'sum'")
                    .hasMessageContaining("reducing").hasMessageContaining("value");
        }
    }

    @Test
    void rocksDbCheckpointRows_onHeap_failNamingOperatorAndWhatWasFound() throws Exception {
        ManualClock clock = new ManualClock(START);
        KeyedStateBackend source = rocksDb(new KeyGroupRange(0, MAX_PARALLELISM - 1), clock);
        fill(new States(source), clock, 9);
        SnapshotImage checkpoint = SnapshotImage.write(source.snapshot(3), source.keyGroupRange());
        KeyedStateBackend target = heap(new KeyGroupRange(0, MAX_PARALLELISM - 1), clock);

        assertThatThrownBy(() -> checkpoint.restoreInto(target))
                .hasMessageContaining("operator 'cross'")
                .hasMessageContaining("expected the canonical savepoint format")
                .hasMessageContaining("RocksDB backend's own rows");
    }
}
