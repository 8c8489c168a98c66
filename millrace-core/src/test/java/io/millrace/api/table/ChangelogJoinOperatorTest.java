package io.millrace.api.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.runtime.process.CoProcessOperator;
import io.millrace.testing.HarnessSetup;
import io.millrace.testing.TwoInputOperatorHarness;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The changelog join's keyed function in its operator, through the two-input harness, which checkpoints it and
 * restores a fresh instance after every input: retractions when a side changes, padded rows of outer joins and
 * their retraction, rejected retractions, state retention, and seeded changelogs of all four kinds compared with
 * the batch join of the final tables.
 */
public class ChangelogJoinOperatorTest {
    /**
     * The state backend of this test's harnesses: adds it to {@code setup}. Nothing here (the harness's heap
     * backend); millrace-rocksdb runs this test again on RocksDB by overriding it.
     */
    protected <H> HarnessSetup<H> onBackend(HarnessSetup<H> setup) {
        return setup;
    }

    /** Rounds of the seeded comparison, and changes per side and round; each input is followed by a restore. */
    protected int[] seededRoundsAndChanges() {
        return new int[] {12, 80};
    }

    private TwoInputOperatorHarness<Row, Row, Row> harness(ChangelogJoin.Kind kind, long leftRetention, long rightRetention) throws Exception {
        ChangelogJoinProcess process = new ChangelogJoinProcess(ChangelogJoins.JOIN, kind, leftRetention, rightRetention);
        return onBackend(TwoInputOperatorHarness.<Row, Row, Row>of(() -> new CoProcessOperator<>(process)))
                .keyedBy((Row r) -> r.getLong("k"), (Row r) -> r.getLong("k")).name("join").open();
    }

    static Row side(RowKind kind, String id, long k, long v) {
        return Row.ofKind(kind, ChangelogJoins.SIDE, id, k, v);
    }

    private static List<String> printed(List<Row> rows) {
        List<String> out = new ArrayList<>();
        rows.forEach(r -> out.add(r.kind().shortString() + ChangelogJoins.describe(r)));
        return out;
    }

    @Test
    void fullOuter_emitsPaddedRows_retractsThemOnTheFirstMatch_andRestoresThemWhenTheLastMatchGoes() throws Exception {
        try (var h = harness(ChangelogJoin.Kind.FULL, 0, 0)) {
            h.processElement1(side(RowKind.INSERT, "a", 1, 10), 1);
            h.processElement2(side(RowKind.INSERT, "x", 1, 20), 2);
            h.processElement2(side(RowKind.INSERT, "y", 1, 30), 3);
            h.processElement1(side(RowKind.UPDATE_BEFORE, "a", 1, 10), 4);
            h.processElement1(side(RowKind.UPDATE_AFTER, "a", 1, 11), 4);
            h.processElement2(side(RowKind.DELETE, "x", 1, 20), 5);
            h.processElement1(side(RowKind.DELETE, "a", 1, 11), 6);

            assertThat(printed(h.extractOutputValues())).containsExactly(
                    "+Ia|null|10|null",
                    "-Da|null|10|null", "+Ia|x|10|20",
                    "+Ia|y|10|30",
                    "-Da|x|10|20", "+Inull|x|null|20", "-Da|y|10|30", "+Inull|y|null|30",
                    "-Dnull|x|null|20", "+Ia|x|11|20", "-Dnull|y|null|30", "+Ia|y|11|30",
                    "-Da|x|11|20",
                    "-Da|y|11|30", "+Inull|y|null|30");
            assertThat(ChangelogJoins.apply(h.extractOutputValues())).containsOnlyKeys("null|y|null|30");
        }
    }

    @Test
    void inner_emitsOnlyMatches_andDuplicateRowsCountTwice() throws Exception {
        try (var h = harness(ChangelogJoin.Kind.INNER, 0, 0)) {
            h.processElement1(side(RowKind.INSERT, "a", 1, 10), 1);
            h.processElement1(side(RowKind.INSERT, "a", 1, 10), 2);
            h.processElement2(side(RowKind.INSERT, "x", 2, 20), 3);
            h.processElement2(side(RowKind.INSERT, "y", 1, 30), 4);
            h.processElement1(side(RowKind.DELETE, "a", 1, 10), 5);
            assertThat(printed(h.extractOutputValues())).containsExactly("+Ia|y|10|30", "+Ia|y|10|30", "-Da|y|10|30");
        }
    }

    @Test
    void aRetractionOfARowTheSideDoesNotHold_isRejectedWithItsReason_andChangesNothing() throws Exception {
        try (var h = harness(ChangelogJoin.Kind.LEFT, 0, 0)) {
            h.processElement1(side(RowKind.INSERT, "a", 1, 10), 1);
            h.processElement2(side(RowKind.DELETE, "x", 1, 20), 2);
            h.processElement1(side(RowKind.UPDATE_BEFORE, "a", 1, 99), 3);
            assertThat(printed(h.extractOutputValues())).containsExactly("+Ia|null|10|null");
            List<RejectedChange> rejected = h.sideOutputValues(ChangelogJoin.REJECTED);
            assertThat(rejected).extracting(RejectedChange::change)
                    .containsExactly(side(RowKind.DELETE, "x", 1, 20), side(RowKind.UPDATE_BEFORE, "a", 1, 99));
            assertThat(rejected.get(0).reason()).contains("right row of key 1", "does not hold");
        }
    }

    @Test
    void withStateRetention_aSidesRowsIdleForLongerAreRemoved_andTheOtherSidesAreKept() throws Exception {
        try (var h = harness(ChangelogJoin.Kind.INNER, 1_000, 60_000)) {
            h.setProcessingTime(0);
            h.processElement1(side(RowKind.INSERT, "a", 1, 10), 1);
            h.processElement2(side(RowKind.INSERT, "x", 1, 20), 2);
            h.setProcessingTime(5_000);
            h.processElement2(side(RowKind.INSERT, "y", 1, 30), 3);   // a has expired
            h.processElement1(side(RowKind.INSERT, "b", 1, 40), 4);   // x and y are kept
            assertThat(printed(h.extractOutputValues())).containsExactly("+Ia|x|10|20", "+Ib|x|40|20", "+Ib|y|40|30");
            h.processElement1(side(RowKind.DELETE, "a", 1, 10), 5);
            assertThat(h.sideOutputValues(ChangelogJoin.REJECTED)).singleElement()
                    .satisfies(r -> assertThat(r.reason()).contains("state retention"));
        }
    }

    @Test
    void seededChangelogs_ofAllFourKinds_giveTheBatchJoinOfTheFinalTables() throws Exception {
        int[] shape = seededRoundsAndChanges();
        for (int round = 0; round < shape[0]; round++) {
            long seed = 0xC0_1000L + round;
            Random random = new Random(seed);
            ChangelogJoin.Kind kind = ChangelogJoin.Kind.values()[round % 4];
            int ids = 2 + random.nextInt(10);
            int keys = 1 + random.nextInt(4);
            Map<String, Row> leftTable = ChangelogJoins.table();
            Map<String, Row> rightTable = ChangelogJoins.table();
            List<Row> lefts = ChangelogJoins.randomChangelog(random, "L", shape[1], ids, keys, leftTable);
            List<Row> rights = ChangelogJoins.randomChangelog(random, "R", shape[1], ids, keys, rightTable);
            try (var h = harness(kind, 0, 0)) {
                int i = 0;
                int j = 0;
                while (i < lefts.size() || j < rights.size()) {
                    if (j == rights.size() || (i < lefts.size() && random.nextBoolean())) {
                        h.processElement1(lefts.get(i++), i);
                    } else {
                        h.processElement2(rights.get(j++), j);
                    }
                }
                assertThat(h.sideOutputValues(ChangelogJoin.REJECTED)).as("seed " + seed).isEmpty();
                assertThat(ChangelogJoins.apply(h.extractOutputValues())).as("seed " + seed + " " + kind)
                        .isEqualTo(ChangelogJoins.batchJoin(leftTable, rightTable, kind.keepLeft, kind.keepRight));
            }
        }
    }
}
