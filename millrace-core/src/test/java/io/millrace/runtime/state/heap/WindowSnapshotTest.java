package io.millrace.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.window.CountWindows;
import io.millrace.api.window.Window;
import io.millrace.api.window.WindowSpec;
import io.millrace.api.window.Windows;
import io.millrace.runtime.operator.OneInputOperator;
import io.millrace.runtime.window.WindowLowering;
import io.millrace.testing.Emitted;
import io.millrace.testing.OneInputOperatorHarness;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Window operators keep everything in the keyed backend: a run that is snapshotted half way and continued
 * by a fresh operator restored from the snapshot emits what an uninterrupted run emits.
 */
class WindowSnapshotTest {
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
    private static OneInputOperatorHarness<Reading, Object> open(WindowSpec spec, SnapshotImage restoreFrom) throws Exception {
        var setup = OneInputOperatorHarness.of((OneInputOperator<Reading, Object>) new WindowLowering().create(spec))
                .keyedBy((Reading r) -> r.sensor());
        if (restoreFrom != null) {
            setup.restoring(restoreFrom::restoreInto);
        }
        return setup.open();
    }

    private static void compareWithUninterruptedRun(Supplier<WindowSpec> spec) throws Exception {
        Random random = new Random(99);
        List<Reading> readings = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        long maxTs = 0;
        for (int i = 0; i < 2_000; i++) {
            long ts = Math.max(0, maxTs + random.nextInt(8) - random.nextInt(12));
            maxTs = Math.max(maxTs, ts);
            readings.add(new Reading("s" + random.nextInt(20), random.nextInt(100)));
            times.add(ts);
        }
        var uninterrupted = open(spec.get(), null);
        var first = open(spec.get(), null);
        OneInputOperatorHarness<Reading, Object> second = null;
        long watermark = Long.MIN_VALUE;
        long seen = 0;
        for (int i = 0; i < readings.size(); i++) {
            if (i == readings.size() / 2) {
                SnapshotImage image = SnapshotImage.take(first.backend());
                first.close();
                second = open(spec.get(), image);
                second.processWatermark(watermark);
            }
            var current = second == null ? first : second;
            uninterrupted.processElement(readings.get(i), times.get(i));
            current.processElement(readings.get(i), times.get(i));
            seen = Math.max(seen, times.get(i));
            if (i % 50 == 49) {
                watermark = seen - 10;
                uninterrupted.processWatermark(watermark);
                current.processWatermark(watermark);
            }
        }
        uninterrupted.endInput();
        second.endInput();
        List<Emitted<Object>> resumed = new ArrayList<>(first.output());
        resumed.addAll(second.output());
        assertThat(uninterrupted.output()).hasSizeGreaterThan(100);
        assertThat(resumed).isEqualTo(uninterrupted.output());
        assertThat(second.backend().entryCount()).isEqualTo(uninterrupted.backend().entryCount());
        assertThat(second.numEventTimeTimers()).isEqualTo(uninterrupted.numEventTimeTimers());
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
