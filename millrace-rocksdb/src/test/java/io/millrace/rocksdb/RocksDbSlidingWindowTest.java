package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.OutputTag;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.ReduceFunction;
import io.millrace.api.time.ManualClock;
import io.millrace.api.window.TimeWindows;
import io.millrace.api.window.WindowSpec;
import io.millrace.api.window.Windows;
import io.millrace.operator.OneInputOperator;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.NamespacedState;
import io.millrace.runtime.state.SnapshotImage;
import io.millrace.runtime.window.Ev;
import io.millrace.runtime.window.WindowLowering;
import io.millrace.runtime.window.WindowSnapshotContractTest;
import io.millrace.testing.HarnessSetup;
import io.millrace.testing.OneInputOperatorHarness;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Time windows on RocksDB (a key's slices in one row) against the heap backend's slice tables on the same seeded,
 * disordered input with late records: the same results, firing indices and late output, for an average
 * (aggregate), a maximum (reduce, not invertible) and kept records (process only). The RocksDB run is checkpointed
 * half way at parallelism 2 and resumed at parallelism 3, with the state cache at its default size, at its
 * smallest (accesses evict and write back) or off. A checkpoint of the earlier layout (a row per key and slice)
 * fails the restore instead of losing its windows.
 */
class RocksDbSlidingWindowTest {
    private static final OutputTag<Ev> LATE = new OutputTag<>("late");
    private static final int MAX_PARALLELISM = 16;
    private static final ReduceFunction<Ev> MAX = (a, b) -> a.value() >= b.value() ? a : b;

    @TempDir
    Path base;

    private final List<OneInputOperatorHarness<Ev, Object>> opened = new ArrayList<>();

    @AfterEach
    void closeHarnesses() {
        opened.forEach(OneInputOperatorHarness::close);
    }

    private enum Contents {
        AVERAGE,
        MAX,
        RECORDS
    }

    private static WindowSpec spec(TimeWindows windows, Contents contents) {
        return new WindowSpec(windows, null, 25, LATE, contents == Contents.MAX ? MAX : null,
                contents == Contents.AVERAGE ? new Ev.SumCount() : null, new WindowSnapshotContractTest.Describe());
    }

    @SuppressWarnings("unchecked")
    private OneInputOperatorHarness<Ev, Object> open(WindowSpec spec, int cacheEntries, int subtask, int parallelism,
            List<SnapshotImage> restoreFrom) throws Exception {
        PipelineConfig loweredFor = cacheEntries < 0 ? new PipelineConfig() : new PipelineConfig().stateBackend("rocksdb");
        Supplier<OneInputOperator<Ev, Object>> operator = () -> (OneInputOperator<Ev, Object>) new WindowLowering().create(spec, loweredFor);
        HarnessSetup<OneInputOperatorHarness<Ev, Object>> setup = cacheEntries < 0
                ? OneInputOperatorHarness.of(operator.get())
                : OneInputOperatorHarness.of(operator.get()).backend(RocksDbStateBackends.factory(
                        TestBackends.CONFIG.withBaseDirectory(base).withCacheEntries(cacheEntries)));
        var h = setup.keyedBy((Ev r) -> r.key()).subtask(subtask, parallelism).maxParallelism(MAX_PARALLELISM)
                .restoring(backend -> {
                    for (SnapshotImage image : restoreFrom) {
                        image.restoreInto(backend);
                    }
                })
                .open();
        opened.add(h);
        return h;
    }

    /** Readings drifting forward, one in ten up to 100 ms behind the newest (many past the watermark and lateness). */
    private record Input(List<Ev> readings, List<Long> times) {
        static Input random(long seed, int n, int keys) {
            Random random = new Random(seed);
            List<Ev> readings = new ArrayList<>();
            List<Long> times = new ArrayList<>();
            long maxTs = 0;
            for (int i = 0; i < n; i++) {
                long ts = random.nextInt(10) == 0 ? Math.max(0, maxTs - random.nextInt(100)) : maxTs + random.nextInt(4);
                maxTs = Math.max(maxTs, ts);
                readings.add(new Ev("k" + random.nextInt(keys), random.nextInt(1000)));
                times.add(ts);
            }
            return new Input(readings, times);
        }
    }

    /** Feeds readings {@code [from, to)} to their subtasks, a watermark 5 ms behind the newest every 40; returns the last. */
    private static long feed(Input input, int from, int to, List<OneInputOperatorHarness<Ev, Object>> subtasks, long watermark)
            throws Exception {
        long seen = Long.MIN_VALUE;
        for (int i = from; i < to; i++) {
            Ev r = input.readings.get(i);
            int owner = KeyGroups.subtaskFor(KeyGroups.keyGroupFor(r.key(), MAX_PARALLELISM), MAX_PARALLELISM, subtasks.size());
            subtasks.get(owner).processElement(r, input.times.get(i));
            seen = Math.max(seen, input.times.get(i));
            if (i % 40 == 39 && seen - 5 > watermark) {
                watermark = seen - 5;
                for (var h : subtasks) {
                    h.processWatermark(watermark);
                }
            }
        }
        return watermark;
    }

    /** Every firing and late record of the subtasks, sorted. */
    private static List<String> outputs(List<OneInputOperatorHarness<Ev, Object>> subtasks) {
        List<String> all = new ArrayList<>();
        for (var h : subtasks) {
            h.output().forEach(e -> all.add(e.value() + " @" + e.timestamp()));
            h.sideOutput(LATE).forEach(e -> all.add("late " + e.value() + " @" + e.timestamp()));
        }
        Collections.sort(all);
        return all;
    }

    private void compare(TimeWindows windows, Contents contents, int cacheEntries, long seed) throws Exception {
        Input input = Input.random(seed, 1_500, 12);
        int n = input.readings.size();
        List<OneInputOperatorHarness<Ev, Object>> heap = List.of(open(spec(windows, contents), -1, 0, 1, List.of()));
        feed(input, 0, n, heap, Long.MIN_VALUE);
        heap.get(0).endInput();
        List<String> expected = outputs(heap);
        assertThat(expected).as("firings").anyMatch(line -> line.contains(" #0 "));
        assertThat(expected).as("late firings").anyMatch(line -> line.contains(" #1 "));
        assertThat(expected).as("late records").anyMatch(line -> line.startsWith("late "));

        List<OneInputOperatorHarness<Ev, Object>> before = List.of(
                open(spec(windows, contents), cacheEntries, 0, 2, List.of()), open(spec(windows, contents), cacheEntries, 1, 2, List.of()));
        long watermark = feed(input, 0, n / 2, before, Long.MIN_VALUE);
        List<SnapshotImage> images = new ArrayList<>();
        for (var h : before) {
            images.add(SnapshotImage.take(h.keyedBackend()));
        }
        List<OneInputOperatorHarness<Ev, Object>> after = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            var h = open(spec(windows, contents), cacheEntries, i, 3, images);
            h.processWatermark(watermark);
            after.add(h);
        }
        feed(input, n / 2, n, after, watermark);
        List<OneInputOperatorHarness<Ev, Object>> all = new ArrayList<>(before);
        for (var h : after) {
            h.endInput();
            assertThat(h.keyedBackend().entryCount()).as("state left at the end").isZero();
            all.add(h);
        }
        assertThat(outputs(all)).as("%s %s, cache %s", windows, contents, cacheEntries).isEqualTo(expected);
    }

    @Test
    void slidingAverage_checkpointedAndRescaled_equalsTheHeapBackend() throws Exception {
        compare(Windows.sliding(Duration.ofMillis(30), Duration.ofMillis(10)), Contents.AVERAGE, RocksDbConfig.DEFAULT_CACHE_ENTRIES, 1);
    }

    @Test
    void slidingMax_withSlicesShorterThanTheSlideAndTheSmallestCache_checkpointedAndRescaled_equalsTheHeapBackend() throws Exception {
        compare(Windows.sliding(Duration.ofMillis(24), Duration.ofMillis(9), Duration.ofMillis(4)), Contents.MAX, RocksDbConfig.MIN_CACHE_ENTRIES, 2);
    }

    @Test
    void slidingRecords_withoutCache_checkpointedAndRescaled_equalsTheHeapBackend() throws Exception {
        compare(Windows.sliding(Duration.ofMillis(40), Duration.ofMillis(8)), Contents.RECORDS, 0, 3);
    }

    @Test
    void tumblingAverage_withTheSmallestCache_checkpointedAndRescaled_equalsTheHeapBackend() throws Exception {
        compare(Windows.tumbling(Duration.ofMillis(20)), Contents.AVERAGE, RocksDbConfig.MIN_CACHE_ENTRIES, 4);
    }

    @Test
    void aCheckpointOfSlicesInARowPerKeyAndSlice_failsTheRestoreNamingTheState() throws Exception {
        KeyGroupRange all = new KeyGroupRange(0, MAX_PARALLELISM - 1);
        SnapshotImage image;
        try (RocksDbKeyedStateBackend old = new RocksDbKeyedStateBackend("window", all, MAX_PARALLELISM, new ManualClock(0),
                TestBackends.CONFIG.withBaseDirectory(base))) {
            NamespacedState<Long, Object> slices = old.namespacedState("window-slices");
            old.setCurrentKey("k1");
            slices.put(0L, new long[] {5, 1});
            image = SnapshotImage.take(old);
        }
        WindowSpec spec = spec(Windows.sliding(Duration.ofMillis(30), Duration.ofMillis(10)), Contents.AVERAGE);
        assertThatThrownBy(() -> open(spec, RocksDbConfig.DEFAULT_CACHE_ENTRIES, 0, 1, List.of(image)))
                .hasStackTraceContaining("state 'window-slices': the job registers it as value state, but the checkpoint or savepoint holds namespaced state");
    }
}
