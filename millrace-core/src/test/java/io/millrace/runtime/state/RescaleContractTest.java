package io.millrace.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Rescaling contract of a keyed state backend: snapshots taken at parallelism 2 (maxParallelism 128), restored at
 * parallelism 1 and 3, put every value, namespaced value and timer into the subtask that owns its key. A subclass
 * says which backend ({@link BackendContract#createBackend}).
 */
public abstract class RescaleContractTest extends BackendContract {
    private static final int MAX_PARALLELISM = 128;

    /** One subtask: a value state, a namespaced state and event-time timers that record where they fire. */
    final class Subtask implements Triggerable<Long> {
        final int index;
        final KeyedStateBackend backend;
        final ValueState<Long> total;
        final NamespacedState<Long, long[]> buckets;
        final List<Fired> fired;

        Subtask(int index, int parallelism, List<Fired> fired, SnapshotImage... restoreFrom) throws Exception {
            this.index = index;
            this.fired = fired;
            this.backend = backend(KeyGroups.rangeFor(index, MAX_PARALLELISM, parallelism), MAX_PARALLELISM, new ManualClock(0));
            for (SnapshotImage image : restoreFrom) {
                image.restoreInto(backend);
            }
            total = backend.stateStore().getState(new ValueStateDescriptor<>("total"));
            buckets = backend.namespacedState("buckets");
            backend.timerService("timers", this);
        }

        @Override
        public void onEventTime(long timestamp, Long namespace) {
            fired.add(new Fired(index, backend.currentKey(), namespace, timestamp));
        }

        @Override
        public void onProcessingTime(long timestamp, Long namespace) {
            throw new AssertionError("no processing-time timers in this test");
        }
    }

    record Fired(int subtask, Object key, Long bucket, long timestamp) {}

    record Expected(Map<Object, Long> totals, Map<Object, Map<Long, Long>> buckets, Set<Fired> timers) {}

    @Test
    public void stateAndTimersOfTwoSubtasks_landInTheOwningSubtask_whenRestoredAtParallelismOneAndThree() throws Exception {
        Random random = new Random(2024);
        List<Fired> ignored = new ArrayList<>();
        List<Subtask> old = List.of(new Subtask(0, 2, ignored), new Subtask(1, 2, ignored));
        Expected expected = new Expected(new HashMap<>(), new HashMap<>(), new HashSet<>());
        for (int i = 0; i < 3_000; i++) {
            Object key = random.nextBoolean() ? "sensor-" + random.nextInt(500) : (Object) random.nextInt(500);
            Subtask owner = old.get(KeyGroups.subtaskFor(KeyGroups.keyGroupFor(key, MAX_PARALLELISM), MAX_PARALLELISM, 2));
            owner.backend.setCurrentKey(key);
            long v = random.nextInt(1_000);
            owner.total.update(v + (owner.total.value() == null ? 0 : owner.total.value()));
            expected.totals.merge(key, v, Long::sum);
            long bucket = random.nextInt(4);
            long[] acc = owner.buckets.get(bucket);
            if (acc == null) {
                acc = new long[1];
                owner.buckets.put(bucket, acc);
            }
            acc[0] += v;
            expected.buckets.computeIfAbsent(key, k -> new HashMap<>()).merge(bucket, v, Long::sum);
            long at = random.nextInt(10_000);
            owner.backend.timerService("timers", owner).registerEventTimeTimer(bucket, at);
            expected.timers.add(new Fired(-1, key, bucket, at));
        }
        List<SnapshotImage> images = new ArrayList<>();
        for (Subtask s : old) {
            images.add(SnapshotImage.take(s.backend));
        }

        for (int parallelism : new int[] {1, 3}) {
            List<Fired> fired = new ArrayList<>();
            List<Subtask> restored = new ArrayList<>();
            for (int i = 0; i < parallelism; i++) {
                restored.add(new Subtask(i, parallelism, fired, images.toArray(SnapshotImage[]::new)));
            }
            long entries = 0;
            for (Subtask s : restored) {
                entries += s.backend.entryCount();
                assertThat(s.backend.unclaimedRestoredNames()).isEmpty();
            }
            assertThat(entries).isEqualTo(2L * expected.totals.size());
            Map<Object, Long> totals = new HashMap<>();
            Map<Object, Map<Long, Long>> buckets = new HashMap<>();
            for (Object key : expected.totals.keySet()) {
                Subtask owner = restored.get(KeyGroups.subtaskFor(KeyGroups.keyGroupFor(key, MAX_PARALLELISM), MAX_PARALLELISM, parallelism));
                owner.backend.setCurrentKey(key);
                totals.put(key, owner.total.value());
                Map<Long, Long> b = new HashMap<>();
                owner.buckets.forEach((bucket, acc) -> b.put(bucket, acc[0]));
                buckets.put(key, b);
            }
            assertThat(totals).isEqualTo(expected.totals);
            assertThat(buckets).isEqualTo(expected.buckets);
            for (Subtask s : restored) {
                int from = fired.size();
                s.backend.advanceWatermark(Long.MAX_VALUE);
                List<Fired> mine = fired.subList(from, fired.size());
                assertThat(mine).isSortedAccordingTo(Comparator.comparingLong(Fired::timestamp));
                assertThat(mine).allMatch(f -> f.subtask() == KeyGroups.subtaskFor(
                        KeyGroups.keyGroupFor(f.key(), MAX_PARALLELISM), MAX_PARALLELISM, parallelism), "fires in the owning subtask");
            }
            List<Fired> anywhere = fired.stream().map(f -> new Fired(-1, f.key(), f.bucket(), f.timestamp())).toList();
            assertThat(anywhere).hasSize(expected.timers.size());
            assertThat(new HashSet<>(anywhere)).isEqualTo(expected.timers);
        }
    }
}
