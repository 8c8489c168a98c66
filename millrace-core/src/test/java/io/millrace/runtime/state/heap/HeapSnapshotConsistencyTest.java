package io.millrace.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.state.StateTtlConfig;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateSnapshot;
import io.millrace.runtime.state.NamespacedState;
import io.millrace.runtime.state.SnapshotImage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Key groups are captured lazily: by the writer, or by the task thread just before it changes a group.
 * Whoever captures, what is written is the state at the moment snapshot() was called.
 */
class HeapSnapshotConsistencyTest {

    /** The backend under test; the serialized-values variant of this test overrides it. */
    HeapKeyedStateBackend heap(KeyGroupRange range, int maxParallelism, io.millrace.api.time.Clock clock) {
        return new HeapKeyedStateBackend(range, maxParallelism, clock);
    }
    private static final KeyGroupRange ALL = new KeyGroupRange(0, 127);
    private final ExecutorService writer = Executors.newSingleThreadExecutor();

    @AfterEach
    void stopWriter() {
        writer.shutdownNow();
    }

    /** A backend whose keys each hold a counter and a long[] accumulator mutated in place. */
    static final class Counters {
        final HeapKeyedStateBackend backend;
        final ValueState<Long> count;
        final NamespacedState<Long, long[]> acc;

        Counters(HeapKeyedStateBackend backend) {
            this.backend = backend;
            count = backend.stateStore().getState(new ValueStateDescriptor<>("count"));
            acc = backend.namespacedState("acc");
        }

        void bump(Object key, long by) {
            backend.setCurrentKey(key);
            count.update(count.value() == null ? by : count.value() + by);
            long[] a = acc.get(0L);
            if (a == null) {
                acc.put(0L, new long[] {by, 1});
            } else {
                a[0] += by;
                a[1]++;
            }
        }

        List<String> dump(List<Object> keys) {
            List<String> out = new ArrayList<>();
            for (Object k : keys) {
                backend.setCurrentKey(k);
                long[] a = acc.get(0L);
                out.add(k + "=" + count.value() + " " + (a == null ? "-" : Arrays.toString(a)));
            }
            return out;
        }
    }

    private static List<Object> keys(int n) {
        List<Object> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            keys.add("k" + i);
        }
        return keys;
    }

    private List<String> restoredDump(SnapshotImage image, List<Object> keys) throws Exception {
        Counters restored = new Counters(heap(ALL, 128, new ManualClock(0)));
        image.restoreInto(restored.backend);
        return restored.dump(keys);
    }

    @Test
    void aWriterOnAnotherThread_writesTheStateOfTheSnapshotMoment_whileTheTaskKeepsChangingIt() throws Exception {
        Random random = new Random(3);
        List<Object> keys = keys(20_000);
        Counters counters = new Counters(heap(ALL, 128, new ManualClock(0)));
        for (int round = 0; round < 3; round++) {
            for (Object k : keys) {
                counters.bump(k, random.nextInt(10));
            }
            List<String> expected = counters.dump(keys);
            KeyedStateSnapshot snapshot = counters.backend.snapshot(round);
            Future<SnapshotImage> written = writer.submit(() -> SnapshotImage.write(snapshot, ALL));
            List<Object> shuffled = new ArrayList<>(keys);
            Collections.shuffle(shuffled, random);
            for (Object k : shuffled) {
                counters.bump(k, 1_000);
            }
            assertThat(restoredDump(written.get(20, TimeUnit.SECONDS), keys)).isEqualTo(expected);
        }
    }

    @Test
    void overlappingSnapshots_eachWriteTheirOwnMoment_inEitherOrder() throws Exception {
        List<Object> keys = keys(500);
        Counters counters = new Counters(heap(ALL, 128, new ManualClock(0)));
        keys.forEach(k -> counters.bump(k, 1));
        List<String> atFirst = counters.dump(keys);
        KeyedStateSnapshot first = counters.backend.snapshot(1);
        counters.bump(keys.get(0), 5);
        List<String> atSecond = counters.dump(keys);
        KeyedStateSnapshot second = counters.backend.snapshot(2);
        keys.forEach(k -> counters.bump(k, 100));

        assertThat(restoredDump(SnapshotImage.write(second, ALL), keys)).isEqualTo(atSecond);
        assertThat(restoredDump(SnapshotImage.write(first, ALL), keys)).isEqualTo(atFirst);
    }

    @Test
    void theTtlSweepAfterTheSnapshot_doesNotRemoveEntriesFromIt() throws Exception {
        ManualClock clock = new ManualClock(1_000);
        HeapKeyedStateBackend backend = heap(ALL, 128, clock);
        ValueStateDescriptor<Long> descriptor = new ValueStateDescriptor<>("v");
        descriptor.enableTimeToLive(StateTtlConfig.afterWrite(Duration.ofMillis(100)));
        ValueState<Long> v = backend.stateStore().getState(descriptor);
        List<Object> keys = keys(200);
        for (Object k : keys) {
            backend.setCurrentKey(k);
            v.update(7L);
        }
        backend.setCurrentKey(null);
        KeyedStateSnapshot snapshot = backend.snapshot(1);
        clock.set(1_200);
        for (int i = 0; i < 10; i++) {
            backend.advanceProcessingTime(1_200);
        }
        assertThat(backend.entryCount()).isZero();

        HeapKeyedStateBackend restored = heap(ALL, 128, new ManualClock(1_050));
        SnapshotImage.write(snapshot, ALL).restoreInto(restored);
        ValueState<Long> back = restored.stateStore().getState(descriptor);
        for (Object k : keys) {
            restored.setCurrentKey(k);
            assertThat(back.value()).as("value of %s", k).isEqualTo(7L);
        }
    }

    /** An immutable record value, which the task thread copies as a reference before changing its group. */
    record Reading(String sensor, double value) {}

    @Test
    void immutableValuesRewrittenWithTtlAfterTheSnapshot_keepTheirOldValueAndExpiryInIt() throws Exception {
        ManualClock clock = new ManualClock(0);
        HeapKeyedStateBackend backend = heap(ALL, 128, clock);
        ValueStateDescriptor<Reading> descriptor = new ValueStateDescriptor<>("last");
        descriptor.enableTimeToLive(StateTtlConfig.afterWrite(Duration.ofMillis(10_000)));
        ValueState<Reading> last = backend.stateStore().getState(descriptor);
        List<Object> keys = keys(1_000);
        for (Object k : keys) {
            backend.setCurrentKey(k);
            last.update(new Reading(k + "-old", 1.0));
        }
        KeyedStateSnapshot snapshot = backend.snapshot(1);
        clock.set(5_000);
        for (Object k : keys) {
            backend.setCurrentKey(k);
            last.update(new Reading(k + "-new", 2.0));
        }
        SnapshotImage image = SnapshotImage.write(snapshot, ALL);

        HeapKeyedStateBackend beforeExpiry = heap(ALL, 128, new ManualClock(9_999));
        image.restoreInto(beforeExpiry);
        ValueState<Reading> restored = beforeExpiry.stateStore().getState(descriptor);
        for (Object k : keys) {
            beforeExpiry.setCurrentKey(k);
            assertThat(restored.value()).as("value of %s", k).isEqualTo(new Reading(k + "-old", 1.0));
        }
        HeapKeyedStateBackend afterExpiry = heap(ALL, 128, new ManualClock(10_000));
        image.restoreInto(afterExpiry);
        ValueState<Reading> expired = afterExpiry.stateStore().getState(descriptor);
        for (Object k : keys) {
            afterExpiry.setCurrentKey(k);
            assertThat(expired.value()).as("value of %s written at 0 with a 10 s TTL, read at 10 s", k).isNull();
        }
    }

    @Test
    void aReleasedSnapshotThatWasNeverWritten_leavesTheBackendWorking() throws Exception {
        List<Object> keys = keys(300);
        Counters counters = new Counters(heap(ALL, 128, new ManualClock(0)));
        keys.forEach(k -> counters.bump(k, 1));
        counters.backend.snapshot(1).release();
        keys.forEach(k -> counters.bump(k, 2));
        counters.backend.advanceProcessingTime(1);

        List<String> now = counters.dump(keys);
        assertThat(now).allMatch(s -> s.endsWith("=3 [3, 2]"));
        assertThat(restoredDump(SnapshotImage.take(counters.backend), keys)).isEqualTo(now);
    }
}
