package io.millrace.runtime.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessJoinFunction;
import io.millrace.api.plan.IntervalJoinSpec;
import io.millrace.testing.Emitted;
import io.millrace.testing.HarnessSetup;
import io.millrace.testing.TwoInputOperatorHarness;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The interval join operator through the two-input harness, which checkpoints it and restores a fresh instance
 * after every input: pairs within the bounds in both arrival orders, result timestamps, cleanup by the watermark,
 * late rows, and a seeded comparison with a nested-loop join.
 */
public class IntervalJoinOperatorTest {
    static final OutputTag<Row> LEFT_LATE = new OutputTag<>("left-late");
    static final OutputTag<Row> RIGHT_LATE = new OutputTag<>("right-late");

    record Row(String key, String id) {}

    /** Emits "leftId+rightId" and checks that the context's timestamps are the pair's. */
    static final class Pairs extends ProcessJoinFunction<Row, Row, String> {
        @Override
        public void processElement(Row left, Row right, Context ctx, Collector<String> out) {
            if (ctx.timestamp() != Math.max(ctx.leftTimestamp(), ctx.rightTimestamp())) {
                throw new AssertionError("result timestamp " + ctx.timestamp() + " of " + left + ", " + right);
            }
            out.collect(left.id() + "+" + right.id() + "@" + ctx.leftTimestamp() + "/" + ctx.rightTimestamp());
        }
    }

    /**
     * The state backend of this test's harnesses: adds it to {@code setup}. Nothing here (the harness's heap
     * backend); millrace-rocksdb runs this test again on RocksDB by overriding it.
     */
    protected <H> HarnessSetup<H> onBackend(HarnessSetup<H> setup) {
        return setup;
    }

    /** Rounds of the seeded comparison, and rows per round; each row is followed by a checkpoint and restore. */
    protected int[] seededRoundsAndRows() {
        return new int[] {12, 150};
    }

    private TwoInputOperatorHarness<Row, Row, String> harness(long lower, long upper, boolean lateOutputs) throws Exception {
        IntervalJoinSpec<Row, Row, String> spec = new IntervalJoinSpec<>(new Pairs(), lower, upper,
                lateOutputs ? LEFT_LATE : null, lateOutputs ? RIGHT_LATE : null);
        return onBackend(TwoInputOperatorHarness.<Row, Row, String>of(() -> new IntervalJoinOperator<>(spec)))
                .keyedBy((Row r) -> r.key(), (Row r) -> r.key()).name("correlate").open();
    }

    @Test
    void rowsWithinTheBounds_areJoinedOnceWhenTheSecondArrives_inEitherOrder_withTheLaterTimestamp() throws Exception {
        try (var h = harness(-10, 20, true)) {
            h.processElement1(new Row("a", "L1"), 100);
            h.processElement2(new Row("a", "R1"), 89);    // below 100 - 10
            h.processElement2(new Row("a", "R2"), 90);    // exactly at the lower bound
            h.processElement2(new Row("b", "R3"), 100);   // other key
            h.processElement2(new Row("a", "R4"), 120);   // exactly at the upper bound
            h.processElement2(new Row("a", "R5"), 121);   // above 100 + 20
            h.processElement1(new Row("a", "L2"), 105);   // after the right rows: R2 (95..125 holds 120, 121; not 90)

            assertThat(h.output()).containsExactly(
                    new Emitted<>("L1+R2@100/90", 100),
                    new Emitted<>("L1+R4@100/120", 120),
                    new Emitted<>("L2+R4@105/120", 120),
                    new Emitted<>("L2+R5@105/121", 121));
            assertThat(h.restores()).isEqualTo(7);
        }
    }

    @Test
    void bufferedRows_areRemovedExactlyWhenTheWatermarkPassesTheirLastPossibleMatch() throws Exception {
        try (var h = harness(-10, 20, true)) {
            h.processElement1(new Row("a", "L1"), 100);   // kept until the watermark reaches 120
            h.processElement2(new Row("a", "R1"), 100);   // kept until the watermark reaches 110
            assertThat(h.numEventTimeTimers()).as("one cleanup timer per side and timestamp").isEqualTo(2);

            h.processWatermark(109);
            assertThat(h.numEventTimeTimers()).isEqualTo(2);
            h.processWatermark(110);
            assertThat(h.numEventTimeTimers()).as("R1 removed at 110").isEqualTo(1);
            h.processElement1(new Row("a", "L2"), 111);   // R1 at 100 could not match it anyway (111 - 10 > 100)
            h.processWatermark(119);
            assertThat(h.numEventTimeTimers()).as("L1 until 120, L2 until 131").isEqualTo(2);
            h.processElement2(new Row("a", "R2"), 120);   // the last moment L1 can match
            h.processWatermark(120);
            assertThat(h.numEventTimeTimers()).as("L1 removed at 120; L2 and R2 (until 130) left").isEqualTo(2);

            h.endInput();
            assertThat(h.keyedBackend().entryCount()).isZero();
            assertThat(h.numEventTimeTimers()).isZero();
            assertThat(h.extractOutputValues()).containsExactly("L1+R1@100/100", "L1+R2@100/120", "L2+R2@111/120");
            assertThat(h.watermarks()).containsExactly(109L, 110L, 119L, 120L, Long.MAX_VALUE);
        }
    }

    @Test
    void rowsAtOrBelowTheWatermark_goToTheirSideOutputs_andJoinNothing() throws Exception {
        try (var h = harness(-10, 20, true)) {
            h.processElement1(new Row("a", "L1"), 100);
            h.processWatermark(105);
            h.processElement2(new Row("a", "R-late"), 105);   // would match L1, but is at the watermark
            h.processElement1(new Row("a", "L-late"), 90);
            h.processElement2(new Row("a", "R1"), 106);

            assertThat(h.extractOutputValues()).containsExactly("L1+R1@100/106");
            assertThat(h.sideOutput(RIGHT_LATE)).containsExactly(new Emitted<>(new Row("a", "R-late"), 105));
            assertThat(h.sideOutput(LEFT_LATE)).containsExactly(new Emitted<>(new Row("a", "L-late"), 90));
            assertThat(h.metrics().lateRecordsDiverted).isEqualTo(2);
            assertThat(h.metrics().lateRecordsDropped).isZero();
        }
    }

    @Test
    void lateRowsWithoutSideOutputs_areDroppedAndCounted() throws Exception {
        try (var h = harness(0, 0, false)) {
            h.processWatermark(50);
            h.processElement1(new Row("a", "L"), 50);
            h.processElement2(new Row("a", "R"), 40);
            h.processElement1(new Row("a", "L2"), 60);
            h.processElement2(new Row("a", "R2"), 60);

            assertThat(h.extractOutputValues()).containsExactly("L2+R2@60/60");
            assertThat(h.metrics().lateRecordsDropped).isEqualTo(2);
            assertThat(h.metrics().lateRecordsDiverted).isZero();
        }
    }

    @Test
    void aRowWithoutEventTimestamp_failsNamingTheJoinAndTheRow() throws Exception {
        try (var h = harness(0, 10, true)) {
            assertThatThrownBy(() -> h.processElement2(new Row("a", "R"), Long.MIN_VALUE))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("interval join 'correlate'")
                    .hasMessageContaining("right row has no event timestamp")
                    .hasMessageContaining("Row[key=a, id=R]");
        }
    }

    @Test
    void aRowWhoseLastMatchIsAlreadyBelowTheWatermark_isJoinedButNotKept() throws Exception {
        try (var h = harness(-100, -50, true)) {          // a left row matches right rows 50..100 ms before it
            h.processElement2(new Row("a", "R1"), 200);
            h.processWatermark(240);
            h.processElement1(new Row("a", "L1"), 260);     // not late; its last match (210) is below the watermark
            assertThat(h.extractOutputValues()).containsExactly("L1+R1@260/200");
            assertThat(h.keyedBackend().entryCount()).as("R1 kept until 300; L1 never buffered").isEqualTo(1);
        }
    }

    @Test
    void seededRandomInput_withInterleavedWatermarks_equalsANestedLoopJoinOfTheRowsThatWereNotLate() throws Exception {
        int rounds = seededRoundsAndRows()[0];
        int rows = seededRoundsAndRows()[1];
        for (int round = 0; round < rounds; round++) {
            long seed = 0x1A7E_0000L + round;
            Random random = new Random(seed);
            long lower = random.nextInt(60) - 40;
            long upper = lower + random.nextInt(50);
            List<Object[]> lefts = new ArrayList<>();
            List<Object[]> rights = new ArrayList<>();
            Map<String, Long> timestamps = new HashMap<>();
            List<String> actual;
            try (var h = harness(lower, upper, true)) {
                long watermark = Long.MIN_VALUE;
                long progress = 1_000;
                for (int i = 0; i < rows; i++) {
                    progress += random.nextInt(4);
                    long ts = progress - random.nextInt(40);
                    Row row = new Row("k" + random.nextInt(3), (random.nextBoolean() ? "L" : "R") + i);
                    timestamps.put(row.id(), ts);
                    boolean late = ts <= watermark;
                    if (row.id().startsWith("L")) {
                        h.processElement1(row, ts);
                        if (!late) {
                            lefts.add(new Object[] {row, ts});
                        }
                    } else {
                        h.processElement2(row, ts);
                        if (!late) {
                            rights.add(new Object[] {row, ts});
                        }
                    }
                    if (random.nextInt(8) == 0) {
                        watermark = Math.max(watermark, progress - random.nextInt(60));
                        h.processWatermark(watermark);
                    }
                }
                h.endInput();
                assertThat(h.keyedBackend().entryCount()).as("seed %d: state after the final watermark", seed).isZero();
                actual = h.extractOutputValues();
                assertThat(h.sideOutputValues(LEFT_LATE).size() + h.sideOutputValues(RIGHT_LATE).size() + lefts.size() + rights.size())
                        .as("seed %d: every row joined or late", seed).isEqualTo(rows);
            }
            List<String> expected = new ArrayList<>();
            for (Object[] l : lefts) {
                for (Object[] r : rights) {
                    Row lr = (Row) l[0];
                    Row rr = (Row) r[0];
                    long t = (Long) l[1];
                    long u = (Long) r[1];
                    if (lr.key().equals(rr.key()) && u >= t + lower && u <= t + upper) {
                        expected.add(lr.id() + "+" + rr.id() + "@" + t + "/" + u);
                    }
                }
            }
            assertThat(actual).as("seed %d, bounds [%d, %d]", seed, lower, upper).containsExactlyInAnyOrderElementsOf(expected);
        }
    }
}
