package io.millrace.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.window.WindowSpec;
import io.millrace.api.window.Windows;
import io.millrace.operator.OneInputOperator;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.SnapshotImage;
import io.millrace.runtime.window.Ev;
import io.millrace.runtime.window.WindowLowering;
import io.millrace.runtime.window.WindowSnapshotContractTest;
import io.millrace.testing.OneInputOperatorHarness;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Sliding windows on the heap backend's slice tables, checkpointed in the middle of windows (between two
 * watermarks) and restored at another parallelism: together the runs before and after emit exactly what one
 * uninterrupted run emits: no window fires twice, and late records after the restore continue the firing count
 * of windows that fired before it.
 */
class SliceTableSnapshotTest {
    private static final int MAX_PARALLELISM = 128;

    private static WindowSpec spec() {
        return new WindowSpec(Windows.sliding(Duration.ofMillis(40), Duration.ofMillis(10)), null, 30, null, null,
                new Ev.SumCount(), new WindowSnapshotContractTest.Describe());
    }

    @SuppressWarnings("unchecked")
    private static OneInputOperatorHarness<Ev, Object> open(int subtask, int parallelism,
            List<SnapshotImage> images) throws Exception {
        return OneInputOperatorHarness.of((OneInputOperator<Ev, Object>) new WindowLowering().create(spec()))
                .keyedBy((Ev r) -> r.key())
                .subtask(subtask, parallelism)
                .restoring(backend -> {
                    for (SnapshotImage image : images) {
                        image.restoreInto(backend);
                    }
                })
                .open();
    }

    /** Readings of 300 sensors with timestamps in the recent past, some of them late; every 97th step a watermark. */
    private record Step(Ev reading, long time, long watermark) {}

    private static List<Step> input(long seed, int n) {
        Random random = new Random(seed);
        List<Step> steps = new ArrayList<>();
        long maxTs = 0;
        long watermark = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            long ts = random.nextInt(8) == 0 ? Math.max(0, maxTs - random.nextInt(50)) : maxTs + random.nextInt(3);
            maxTs = Math.max(maxTs, ts);
            if (i % 97 == 96) {
                watermark = maxTs - 8;
            }
            steps.add(new Step(new Ev("s" + random.nextInt(300), random.nextInt(100)), ts,
                    i % 97 == 96 ? watermark : Long.MIN_VALUE));
        }
        return steps;
    }

    private static void feed(List<Step> steps, int from, int to, List<OneInputOperatorHarness<Ev, Object>> subtasks)
            throws Exception {
        for (int i = from; i < to; i++) {
            Step s = steps.get(i);
            int owner = KeyGroups.subtaskFor(KeyGroups.keyGroupFor(s.reading.key(), MAX_PARALLELISM), MAX_PARALLELISM, subtasks.size());
            subtasks.get(owner).processElement(s.reading, s.time);
            if (s.watermark != Long.MIN_VALUE) {
                for (var h : subtasks) {
                    h.processWatermark(s.watermark);
                }
            }
        }
    }

    private static List<String> outputs(List<OneInputOperatorHarness<Ev, Object>> subtasks) {
        List<String> all = new ArrayList<>();
        for (var h : subtasks) {
            h.output().forEach(e -> all.add(e.value() + " @" + e.timestamp()));
        }
        return all;
    }

    @Test
    void checkpointInTheMiddleOfWindowsAtParallelismTwo_restoredAtOneAndThree_emitsWhatAnUninterruptedRunEmits() throws Exception {
        List<Step> steps = input(23, 6_000);
        var whole = List.of(open(0, 1, List.of()));
        feed(steps, 0, steps.size(), whole);
        whole.get(0).endInput();
        List<String> expected = outputs(whole);
        Collections.sort(expected);
        assertThat(expected).hasSizeGreaterThan(1_000).anyMatch(line -> line.contains(" #1 "));

        for (int cut : new int[] {2_950, 4_001}) {
            for (int parallelism : new int[] {1, 3}) {
                var before = List.of(open(0, 2, List.of()), open(1, 2, List.of()));
                feed(steps, 0, cut, before);
                List<SnapshotImage> images = new ArrayList<>();
                for (var h : before) {
                    images.add(SnapshotImage.take(h.backend()));
                }
                List<String> resumed = outputs(before);
                List<OneInputOperatorHarness<Ev, Object>> after = new ArrayList<>();
                for (int i = 0; i < parallelism; i++) {
                    after.add(open(i, parallelism, images));
                }
                feed(steps, cut, steps.size(), after);
                for (var h : after) {
                    h.endInput();
                    assertThat(h.backend().entryCount()).isZero();
                }
                resumed.addAll(outputs(after));
                Collections.sort(resumed);
                assertThat(resumed).as("cut at %s, resumed at parallelism %s", cut, parallelism).isEqualTo(expected);
            }
        }
    }

    @Test
    void snapshotTakenWhileRecordsKeepArriving_writesTheStateOfTheMomentItWasTaken() throws Exception {
        List<Step> steps = input(5, 3_000);
        var first = List.of(open(0, 1, List.of()));
        feed(steps, 0, 1_500, first);
        var snapshot = first.get(0).backend().snapshot(1);
        feed(steps, 1_500, 2_200, first);
        SnapshotImage late = SnapshotImage.write(snapshot, first.get(0).backend().keyGroupRange());

        var reference = List.of(open(0, 1, List.of()));
        feed(steps, 0, 1_500, reference);
        SnapshotImage atOnce = SnapshotImage.take(reference.get(0).backend());

        var fromLate = List.of(open(0, 1, List.of(late)));
        var fromAtOnce = List.of(open(0, 1, List.of(atOnce)));
        feed(steps, 1_500, steps.size(), fromLate);
        feed(steps, 1_500, steps.size(), fromAtOnce);
        fromLate.get(0).endInput();
        fromAtOnce.get(0).endInput();
        assertThat(outputs(fromLate)).hasSizeGreaterThan(100).isEqualTo(outputs(fromAtOnce));
    }

    @Test
    void sliceStateThatNoOperatorClaims_isCarriedUnreadIntoTheNextSnapshot_andRestoresFromThere() throws Exception {
        List<Step> steps = input(31, 3_000);
        var whole = List.of(open(0, 1, List.of()));
        feed(steps, 0, steps.size(), whole);
        whole.get(0).endInput();

        var before = List.of(open(0, 1, List.of()));
        feed(steps, 0, 1_600, before);
        SnapshotImage first = SnapshotImage.take(before.get(0).backend());
        HeapKeyedStateBackend idle = new HeapKeyedStateBackend(before.get(0).backend().keyGroupRange(), MAX_PARALLELISM,
                before.get(0).clock());
        first.restoreInto(idle);
        assertThat(idle.unclaimedRestoredNames()).contains("window-slices");
        SnapshotImage carried = SnapshotImage.take(idle);
        idle.close();

        var after = List.of(open(0, 1, List.of(carried)));
        feed(steps, 1_600, steps.size(), after);
        after.get(0).endInput();
        List<String> resumed = outputs(before);
        resumed.addAll(outputs(after));
        assertThat(resumed).hasSizeGreaterThan(100).isEqualTo(outputs(whole));
    }
}
