package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.window.CountWindows;
import io.millrace.api.window.Window;
import io.millrace.api.window.WindowSpec;
import io.millrace.api.window.Windows;
import io.millrace.runtime.operator.OneInputOperator;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.window.WindowLowering;
import io.millrace.testing.Emitted;
import io.millrace.testing.OneInputOperatorHarness;
import io.millrace.runtime.state.SnapshotImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Window operators on RocksDB: a run snapshotted half way and continued by fresh operators restored from
 * the snapshot (at the same or another parallelism) emits what an uninterrupted run emits.
 */
class RocksDbWindowSnapshotTest {
    @TempDir
    Path base;

    record Reading(String sensor, long value) implements java.io.Serializable {}

    /** Sum and count in a long[] accumulator, mutated in place. */
    static final class SumCount implements AggregateFunction<Reading, long[], long[]> {
        @Override
        public long[] createAccumulator() {
            return new long[2];
        }

        @Override
        public long[] add(Reading r, long[] acc) {
            acc[0] += r.value();
            acc[1]++;
            return acc;
        }

        @Override
        public long[] getResult(long[] acc) {
            return acc.clone();
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            a[0] += b[0];
            a[1] += b[1];
            return a;
        }
    }

    /** Describes each firing as text: key, window, firing index and contents. */
    static final class Describe extends ProcessWindowFunction<Object, String, String, Window> {
        @Override
        public void process(String key, Context<Window> ctx, Iterable<Object> elements, Collector<String> out) {
            List<String> items = new ArrayList<>();
            for (Object e : elements) {
                items.add(e instanceof long[] a ? a[0] + "/" + a[1] : e.toString());
            }
            out.collect(key + " " + ctx.window() + " #" + ctx.firing() + " " + items);
        }
    }

    @SuppressWarnings("unchecked")
    private OneInputOperatorHarness<Reading, Object> open(WindowSpec spec, int subtask, int parallelism,
            List<SnapshotImage> restoreFrom) throws Exception {
        return OneInputOperatorHarness.of((OneInputOperator<Reading, Object>) new WindowLowering().create(spec))
                .keyedBy((Reading r) -> r.sensor())
                .subtask(subtask, parallelism)
                .backend(RocksDbStateBackends.factory(TestBackends.CONFIG.withBaseDirectory(base)))
                .restoring(backend -> {
                    for (SnapshotImage image : restoreFrom) {
                        image.restoreInto(backend);
                    }
                })
                .open();
    }

    private record Input(List<Reading> readings, List<Long> times) {
        static Input random(long seed, int n) {
            Random random = new Random(seed);
            List<Reading> readings = new ArrayList<>();
            List<Long> times = new ArrayList<>();
            long maxTs = 0;
            for (int i = 0; i < n; i++) {
                long ts = Math.max(0, maxTs + random.nextInt(8) - random.nextInt(12));
                maxTs = Math.max(maxTs, ts);
                readings.add(new Reading("s" + random.nextInt(20), random.nextInt(100)));
                times.add(ts);
            }
            return new Input(readings, times);
        }
    }

    /** Feeds readings {@code [from, to)} to their owning subtasks, a watermark to all every 50; returns the last one. */
    private static long feed(Input input, int from, int to, List<OneInputOperatorHarness<Reading, Object>> subtasks,
            long watermark) throws Exception {
        long seen = watermark + 10;
        for (int i = from; i < to; i++) {
            Reading r = input.readings.get(i);
            int owner = KeyGroups.subtaskFor(KeyGroups.keyGroupFor(r.sensor(), 128), 128, subtasks.size());
            subtasks.get(owner).processElement(r, input.times.get(i));
            seen = Math.max(seen, input.times.get(i));
            if (i % 50 == 49) {
                watermark = seen - 10;
                for (var h : subtasks) {
                    h.processWatermark(watermark);
                }
            }
        }
        return watermark;
    }

    private static List<String> outputs(List<OneInputOperatorHarness<Reading, Object>> subtasks) {
        List<String> all = new ArrayList<>();
        for (var h : subtasks) {
            h.output().forEach(e -> all.add(e.value() + " @" + e.timestamp()));
        }
        Collections.sort(all);
        return all;
    }

    private static int timers(OneInputOperatorHarness<Reading, Object> h) {
        return ((RocksDbKeyedStateBackend) h.keyedBackend()).eventTimeTimerCount();
    }

    @Test
    void slidingWindowsRunAtParallelismTwo_resumedAtOneAndAtThree_emitWhatAnUninterruptedRunEmits() throws Exception {
        Supplier<WindowSpec> spec = () -> new WindowSpec(Windows.sliding(Duration.ofMillis(30), Duration.ofMillis(10)),
                null, 5, null, null, new SumCount(), new Describe());
        Input input = Input.random(17, 2_000);
        var whole = List.of(open(spec.get(), 0, 1, List.of()));
        feed(input, 0, input.readings.size(), whole, Long.MIN_VALUE);
        whole.get(0).endInput();
        List<String> expected = outputs(whole);
        whole.get(0).close();
        assertThat(expected).hasSizeGreaterThan(100);

        for (int parallelism : new int[] {1, 3}) {
            var before = List.of(open(spec.get(), 0, 2, List.of()), open(spec.get(), 1, 2, List.of()));
            long watermark = feed(input, 0, 1_000, before, Long.MIN_VALUE);
            List<SnapshotImage> images = new ArrayList<>();
            for (var h : before) {
                images.add(SnapshotImage.take(h.keyedBackend()));
                h.close();
            }
            List<OneInputOperatorHarness<Reading, Object>> after = new ArrayList<>();
            for (int i = 0; i < parallelism; i++) {
                var h = open(spec.get(), i, parallelism, images);
                h.processWatermark(watermark);
                after.add(h);
            }
            feed(input, 1_000, input.readings.size(), after, watermark);
            for (var h : after) {
                h.endInput();
            }
            List<String> resumed = new ArrayList<>(outputs(before));
            resumed.addAll(outputs(after));
            Collections.sort(resumed);
            assertThat(resumed).as("resumed at parallelism %s", parallelism).isEqualTo(expected);
            after.forEach(OneInputOperatorHarness::close);
        }
        try (Stream<Path> left = Files.list(base)) {
            assertThat(left).as("working directories of closed backends").isEmpty();
        }
    }

    /** Runs the input once uninterrupted, and once snapshotted half way and resumed by a fresh operator. */
    private void compareWithUninterruptedRun(Supplier<WindowSpec> spec) throws Exception {
        Input input = Input.random(99, 2_000);
        int n = input.readings.size();
        try (var uninterrupted = open(spec.get(), 0, 1, List.of())) {
            feed(input, 0, n, List.of(uninterrupted), Long.MIN_VALUE);
            uninterrupted.endInput();

            var first = open(spec.get(), 0, 1, List.of());
            long watermark = feed(input, 0, n / 2, List.of(first), Long.MIN_VALUE);
            SnapshotImage image = SnapshotImage.take(first.keyedBackend());
            first.close();
            try (var second = open(spec.get(), 0, 1, List.of(image))) {
                second.processWatermark(watermark);
                feed(input, n / 2, n, List.of(second), watermark);
                second.endInput();

                List<Emitted<Object>> resumed = new ArrayList<>(first.output());
                resumed.addAll(second.output());
                assertThat(uninterrupted.output()).hasSizeGreaterThan(100);
                assertThat(resumed).isEqualTo(uninterrupted.output());
                assertThat(second.keyedBackend().entryCount()).isEqualTo(uninterrupted.keyedBackend().entryCount());
                assertThat(timers(second)).isEqualTo(timers(uninterrupted));
            }
        }
    }

    @Test
    void slidingWindowsWithLateness_resumedFromASnapshot_emitWhatAnUninterruptedRunEmits() throws Exception {
        compareWithUninterruptedRun(() -> new WindowSpec(Windows.sliding(Duration.ofMillis(30), Duration.ofMillis(10)),
                null, 5, null, null, new SumCount(), new Describe()));
    }

    @Test
    void sessionWindows_resumedFromASnapshot_emitWhatAnUninterruptedRunEmits() throws Exception {
        compareWithUninterruptedRun(() -> new WindowSpec(Windows.session(Duration.ofMillis(6)),
                null, 0, null, (Reading a, Reading b) -> new Reading(a.sensor(), a.value() + b.value()), null, new Describe()));
    }

    @Test
    void countWindowsKeepingRecords_resumedFromASnapshot_emitWhatAnUninterruptedRunEmits() throws Exception {
        compareWithUninterruptedRun(() -> new WindowSpec(CountWindows.of(5, 2), null, 0, null, null, null, new Describe()));
    }
}
