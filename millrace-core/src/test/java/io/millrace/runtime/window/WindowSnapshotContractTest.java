package io.millrace.runtime.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.window.CountWindows;
import io.millrace.api.window.Window;
import io.millrace.api.window.WindowSpec;
import io.millrace.api.window.Windows;
import io.millrace.operator.OneInputOperator;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.SnapshotImage;
import io.millrace.testing.Emitted;
import io.millrace.testing.HarnessSetup;
import io.millrace.testing.OneInputOperatorHarness;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Window operators keep everything in the keyed backend: a run that is snapshotted half way and continued by
 * fresh operators restored from the snapshot (at the same or another parallelism) emits what an uninterrupted
 * run emits. A subclass says which backend the harnesses use ({@link #harness}) and how many key groups.
 */
public abstract class WindowSnapshotContractTest {
    /**
     * A harness setup for one window operator subtask on the backend under test; the contract adds the key,
     * subtask, key groups and restore.
     */
    protected abstract HarnessSetup<OneInputOperatorHarness<Ev, Object>> harness(Supplier<OneInputOperator<Ev, Object>> operator);

    /** The configuration the windows are lowered for: its state backend chooses their layout. The default: heap. */
    protected PipelineConfig loweredFor() {
        return new PipelineConfig();
    }

    /** Key groups of the harnesses (few make a harness that restores after every input fast). */
    protected abstract int maxParallelism();

    /** Checks after every harness of a test is closed, such as that their backends left no files. */
    protected void afterClose() throws Exception {}

    /** Describes each firing as text: key, window, firing index and contents. */
    public static final class Describe extends ProcessWindowFunction<Object, String, String, Window> {
        @Override
        public void process(String key, Context<Window> ctx, Iterable<Object> elements, Collector<String> out) {
            List<String> items = new ArrayList<>();
            for (Object e : elements) {
                items.add(e instanceof long[] a ? a[0] + "/" + a[1] : e.toString());
            }
            out.collect(key + " " + ctx.window() + " #" + ctx.firing() + " " + items);
        }
    }

    private OneInputOperatorHarness<Ev, Object> open(WindowSpec spec, SnapshotImage restoreFrom) throws Exception {
        return open(spec, 0, 1, restoreFrom == null ? List.of() : List.of(restoreFrom));
    }

    @SuppressWarnings("unchecked")
    private OneInputOperatorHarness<Ev, Object> open(WindowSpec spec, int subtask, int parallelism,
            List<SnapshotImage> restoreFrom) throws Exception {
        OneInputOperatorHarness<Ev, Object> h = harness(() -> (OneInputOperator<Ev, Object>) new WindowLowering().create(spec, loweredFor()))
                .keyedBy((Ev r) -> r.key())
                .subtask(subtask, parallelism)
                .maxParallelism(maxParallelism())
                .restoring(backend -> {
                    for (SnapshotImage image : restoreFrom) {
                        image.restoreInto(backend);
                    }
                })
                .open();
        opened.add(h);
        return h;
    }

    private final List<OneInputOperatorHarness<Ev, Object>> opened = new ArrayList<>();

    @AfterEach
    public void closeHarnesses() throws Exception {
        for (var h : opened) {
            h.close();
        }
        opened.clear();
        afterClose();
    }

    /** Input with bounded disorder: readings and their timestamps. */
    private record Input(List<Ev> readings, List<Long> times) {
        static Input random(long seed, int n) {
            Random random = new Random(seed);
            List<Ev> readings = new ArrayList<>();
            List<Long> times = new ArrayList<>();
            long maxTs = 0;
            for (int i = 0; i < n; i++) {
                long ts = Math.max(0, maxTs + random.nextInt(8) - random.nextInt(12));
                maxTs = Math.max(maxTs, ts);
                readings.add(new Ev("s" + random.nextInt(20), random.nextInt(100)));
                times.add(ts);
            }
            return new Input(readings, times);
        }
    }

    /**
     * Feeds readings {@code [from, to)} to the subtasks owning their keys, with a watermark to all of them
     * every 50 readings; returns the last watermark.
     */
    private long feed(Input input, int from, int to, List<OneInputOperatorHarness<Ev, Object>> subtasks,
            long watermark) throws Exception {
        long seen = watermark + 10;
        for (int i = from; i < to; i++) {
            Ev r = input.readings.get(i);
            int owner = KeyGroups.subtaskFor(
                    KeyGroups.keyGroupFor(r.key(), maxParallelism()), maxParallelism(), subtasks.size());
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

    private static List<String> outputs(List<OneInputOperatorHarness<Ev, Object>> subtasks) {
        List<String> all = new ArrayList<>();
        for (var h : subtasks) {
            h.output().forEach(e -> all.add(e.value() + " @" + e.timestamp()));
        }
        Collections.sort(all);
        return all;
    }

    @Test
    public void slidingWindowsRunAtParallelismTwo_resumedAtOneAndAtThree_emitWhatAnUninterruptedRunEmits() throws Exception {
        Supplier<WindowSpec> spec = () -> new WindowSpec(Windows.sliding(Duration.ofMillis(30), Duration.ofMillis(10)),
                null, 5, null, null, new Ev.SumCount(), new Describe());
        Input input = Input.random(17, 2_000);
        List<OneInputOperatorHarness<Ev, Object>> whole = List.of(open(spec.get(), null));
        feed(input, 0, input.readings.size(), whole, Long.MIN_VALUE);
        whole.get(0).endInput();
        List<String> expected = outputs(whole);
        assertThat(expected).hasSizeGreaterThan(100);

        for (int parallelism : new int[] {1, 3}) {
            List<OneInputOperatorHarness<Ev, Object>> before = List.of(
                    open(spec.get(), 0, 2, List.of()), open(spec.get(), 1, 2, List.of()));
            long watermark = feed(input, 0, 1_000, before, Long.MIN_VALUE);
            List<SnapshotImage> images = new ArrayList<>();
            for (var h : before) {
                images.add(SnapshotImage.take(h.keyedBackend()));
            }
            List<OneInputOperatorHarness<Ev, Object>> after = new ArrayList<>();
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
        }
    }

    /** Runs the input once uninterrupted, and once snapshotted half way (right after a watermark) and resumed by a fresh operator. */
    private void compareWithUninterruptedRun(Supplier<WindowSpec> spec) throws Exception {
        Input input = Input.random(99, 2_000);
        int n = input.readings.size();
        var uninterrupted = open(spec.get(), null);
        feed(input, 0, n, List.of(uninterrupted), Long.MIN_VALUE);
        uninterrupted.endInput();

        var first = open(spec.get(), null);
        long watermark = feed(input, 0, n / 2, List.of(first), Long.MIN_VALUE);
        SnapshotImage image = SnapshotImage.take(first.keyedBackend());
        opened.remove(first);
        first.close();
        var second = open(spec.get(), image);
        second.processWatermark(watermark);
        feed(input, n / 2, n, List.of(second), watermark);
        second.endInput();

        List<Emitted<Object>> resumed = new ArrayList<>(first.output());
        resumed.addAll(second.output());
        assertThat(uninterrupted.output()).hasSizeGreaterThan(100);
        assertThat(resumed).isEqualTo(uninterrupted.output());
        assertThat(second.keyedBackend().entryCount()).isEqualTo(uninterrupted.keyedBackend().entryCount());
        assertThat(second.keyedBackend().eventTimeTimerCount()).isEqualTo(uninterrupted.keyedBackend().eventTimeTimerCount());
    }

    @Test
    public void slidingWindowsWithLateness_resumedFromASnapshot_emitWhatAnUninterruptedRunEmits() throws Exception {
        compareWithUninterruptedRun(() -> new WindowSpec(Windows.sliding(Duration.ofMillis(30), Duration.ofMillis(10)),
                null, 5, null, null, new Ev.SumCount(), new Describe()));
    }

    @Test
    public void sessionWindows_resumedFromASnapshot_emitWhatAnUninterruptedRunEmits() throws Exception {
        compareWithUninterruptedRun(() -> new WindowSpec(Windows.session(Duration.ofMillis(6)),
                null, 0, null, (Ev a, Ev b) -> new Ev(a.key(), a.value() + b.value()), null, new Describe()));
    }

    @Test
    public void countWindowsKeepingRecords_resumedFromASnapshot_emitWhatAnUninterruptedRunEmits() throws Exception {
        compareWithUninterruptedRun(() -> new WindowSpec(CountWindows.of(5, 2), null, 0, null, null, null, new Describe()));
    }
}
