package io.millrace.api.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.OutputTag;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import io.millrace.runtime.process.CoProcessOperator;
import io.millrace.testing.Emitted;
import io.millrace.testing.HarnessSetup;
import io.millrace.testing.TwoInputOperatorHarness;
import io.millrace.api.state.SortedMapState;
import io.millrace.api.state.SortedMapStateDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The temporal join's keyed function in its operator, through the two-input harness, which checkpoints it and
 * restores a fresh instance after every input: the version valid at each row's time whatever the arrival order,
 * inner and left outer, retractions ending validity, removal of unreachable versions, late rows and late or
 * retracting changes to their side outputs, and a seeded comparison with a batch lookup.
 */
public class TemporalJoinOperatorTest {
    static final RowType CONFIG = RowType.builder().field("machine", FieldType.STRING).field("rpm", FieldType.BIGINT).build();
    static final OutputTag<Reading> LATE = new OutputTag<>("late-readings");

    record Reading(String machine, String id) {}

    /**
     * The state backend of this test's harnesses: adds it to {@code setup}. Nothing here (the harness's heap
     * backend); millrace-rocksdb runs this test again on RocksDB by overriding it.
     */
    protected <H> HarnessSetup<H> onBackend(HarnessSetup<H> setup) {
        return setup;
    }

    /** Rounds of the seeded comparison, and inputs per round; each input is followed by a checkpoint and restore. */
    protected int[] seededRoundsAndInputs() {
        return new int[] {10, 150};
    }

    static Row config(RowKind kind, String machine, long rpm) {
        return Row.ofKind(kind, CONFIG, machine, rpm);
    }

    private TwoInputOperatorHarness<Reading, Row, String> harness(boolean outer) throws Exception {
        TemporalJoinProcess<String, Reading, String> process = new TemporalJoinProcess<>(
                (r, c) -> r.id() + "=" + (c == null ? "none" : c.kind().shortString() + c.getLong("rpm")), outer, castTag(LATE));
        return onBackend(TwoInputOperatorHarness.<Reading, Row, String>of(() -> new CoProcessOperator<>(process)))
                .keyedBy((Reading r) -> r.machine(), (Row r) -> r.getString("machine")).name("config at reading time").open();
    }

    @SuppressWarnings("unchecked")
    private static OutputTag<Object> castTag(OutputTag<?> tag) {
        return (OutputTag<Object>) tag;
    }

    @Test
    void eachRow_seesTheVersionValidAtItsTime_whateverTheArrivalOrder_onceTheWatermarkPassesIt() throws Exception {
        try (var h = harness(false)) {
            h.processElement1(new Reading("m1", "r150"), 150);
            h.processElement2(config(RowKind.INSERT, "m1", 1000), 100);
            h.processElement1(new Reading("m1", "r120"), 120);
            h.processElement2(config(RowKind.UPDATE_BEFORE, "m1", 1000), 100);  // the old row, with its time: ignored
            h.processElement2(config(RowKind.UPDATE_AFTER, "m1", 1500), 140);
            h.processElement1(new Reading("m1", "r140"), 140);   // exactly at the update: sees it
            h.processElement1(new Reading("m1", "r99"), 99);     // before any version: nothing (inner)
            h.processElement1(new Reading("m2", "x"), 130);      // another key, no version
            assertThat(h.output()).as("nothing before the watermark passes the rows").isEmpty();

            h.processWatermark(145);
            assertThat(h.output()).containsExactly(new Emitted<>("r120=+I1000", 120), new Emitted<>("r140=+I1500", 140));
            h.processWatermark(200);
            assertThat(h.extractOutputValues()).containsExactly("r120=+I1000", "r140=+I1500", "r150=+I1500");
            assertThat(h.sideOutputValues(TemporalJoin.REJECTED)).isEmpty();
        }
    }

    @Test
    void leftOuter_emitsRowsWithoutVersion_withNull_andADeleteEndsValidity() throws Exception {
        try (var h = harness(true)) {
            h.processElement2(config(RowKind.INSERT, "m1", 1000), 100);
            h.processElement2(config(RowKind.DELETE, "m1", 1000), 200);
            h.processElement1(new Reading("m1", "a"), 50);
            h.processElement1(new Reading("m1", "b"), 199);
            h.processElement1(new Reading("m1", "c"), 200);
            h.processElement1(new Reading("m1", "d"), 300);
            h.endInput();
            assertThat(h.output()).containsExactly(new Emitted<>("a=none", 50), new Emitted<>("b=+I1000", 199),
                    new Emitted<>("c=none", 200), new Emitted<>("d=none", 300));
            assertThat(h.keyedBackend().entryCount()).as("a deleted key keeps no version").isZero();
        }
    }

    @Test
    void versionsNoRowCanReach_areRemoved_keepingTheOneValidAtTheWatermark() throws Exception {
        try (var h = harness(false)) {
            for (int i = 1; i <= 5; i++) {
                h.processElement2(config(RowKind.UPDATE_AFTER, "m1", i), i * 10);
            }
            assertThat(h.numEventTimeTimers()).isEqualTo(5);
            h.processWatermark(35);
            assertThat(h.numEventTimeTimers()).isEqualTo(2);
            assertThat(versionTimes(h, "m1")).as("versions at 30 (valid at 35), 40 and 50").containsExactly(30L, 40L, 50L);
            h.processElement1(new Reading("m1", "r36"), 36);
            h.processWatermark(1_000);
            assertThat(h.extractOutputValues()).containsExactly("r36=+I3");
            assertThat(versionTimes(h, "m1")).as("only the version at 50").containsExactly(50L);
            h.processElement1(new Reading("m1", "r2000"), 2_000);
            h.endInput();
            assertThat(h.extractOutputValues()).containsExactly("r36=+I3", "r2000=+I5");
        }
    }

    @Test
    void lateRows_goToTheLateOutput_lateChangesAndRetractionsOfNothing_areRejectedWithTheirReason() throws Exception {
        try (var h = harness(true)) {
            h.processElement2(config(RowKind.INSERT, "m1", 1000), 100);
            h.processElement2(config(RowKind.DELETE, "m2", 7), 110);        // m2 was never inserted
            h.processElement2(config(RowKind.DELETE, "m1", 1000), 120);
            h.processElement2(config(RowKind.DELETE, "m1", 1000), 130);        // m1 is deleted already
            h.processElement2(config(RowKind.UPDATE_BEFORE, "m9", 1), 131);    // a -U changes nothing, even of an unknown key
            h.processWatermark(150);
            h.processElement1(new Reading("m1", "late"), 150);
            h.processElement2(config(RowKind.UPDATE_AFTER, "m1", 9), 140);   // behind the watermark
            h.processElement1(new Reading("m1", "ok"), 151);
            h.endInput();

            assertThat(h.sideOutputValues(LATE)).containsExactly(new Reading("m1", "late"));
            List<RejectedChange> rejected = h.sideOutputValues(TemporalJoin.REJECTED);
            assertThat(rejected).extracting(RejectedChange::change).containsExactly(
                    config(RowKind.DELETE, "m2", 7), config(RowKind.DELETE, "m1", 1000), config(RowKind.UPDATE_AFTER, "m1", 9));
            assertThat(rejected.get(0).reason()).contains("key m2", "had no version");
            assertThat(rejected.get(2).reason()).contains("key m1", "watermark (150)");
            assertThat(h.extractOutputValues()).as("the late change changed nothing").containsExactly("ok=none");
        }
    }

    /** The timestamps of the versions kept for {@code machine}, in order. */
    static List<Long> versionTimes(TwoInputOperatorHarness<Reading, Row, String> h, String machine) {
        h.keyedBackend().setCurrentKey(machine);
        List<Long> times = new ArrayList<>();
        SortedMapState<Long, Row> versions = h.keyedBackend().stateStore()
                .getSortedMapState(new SortedMapStateDescriptor<>("temporal-join-versions", Long.class));
        versions.entries().forEach(e -> times.add(e.getKey()));
        return times;
    }

    /** The batch temporal lookup: the last change of the key at or before {@code t} in input order, if an addition. */
    static Row validAt(List<Row> changes, List<Long> times, String machine, long t) {
        Row found = null;
        long foundAt = Long.MIN_VALUE;
        for (int i = 0; i < changes.size(); i++) {
            Row c = changes.get(i);
            if (c.getString("machine").equals(machine) && times.get(i) <= t && times.get(i) >= foundAt) {
                found = c;
                foundAt = times.get(i);
            }
        }
        return found != null && found.kind().isAddition() ? found : null;
    }

    @Test
    void seededInputs_inRandomOrderAboveTheWatermark_equalTheBatchLookup() throws Exception {
        int[] shape = seededRoundsAndInputs();
        for (int round = 0; round < shape[0]; round++) {
            long seed = 0x7E4_0000L + round;
            Random random = new Random(seed);
            List<Row> changes = new ArrayList<>();
            List<Long> changeTimes = new ArrayList<>();
            List<String> expected = new ArrayList<>();
            boolean outer = random.nextBoolean();
            try (var h = harness(outer)) {
                long watermark = 0;
                List<String> readings = new ArrayList<>();
                List<Long> readingTimes = new ArrayList<>();
                for (int i = 0; i < shape[1]; i++) {
                    String machine = "m" + random.nextInt(3);
                    long t = watermark + 1 + random.nextInt(60);
                    int what = random.nextInt(10);
                    if (what < 5) {
                        h.processElement1(new Reading(machine, "r" + i), t);
                        readings.add(machine + "/r" + i);
                        readingTimes.add(t);
                    } else if (what < 9 || changes.isEmpty()) {
                        Row c = config(random.nextInt(8) == 0 ? RowKind.DELETE : RowKind.UPDATE_AFTER, machine, random.nextInt(100));
                        h.processElement2(c, t);
                        changes.add(c);
                        changeTimes.add(t);
                    } else {
                        watermark += random.nextInt(30);
                        h.processWatermark(watermark);
                    }
                }
                h.endInput();
                for (int i = 0; i < readings.size(); i++) {
                    String[] parts = readings.get(i).split("/");
                    Row v = validAt(changes, changeTimes, parts[0], readingTimes.get(i));
                    if (v != null || outer) {
                        expected.add(parts[1] + "=" + (v == null ? "none" : "+I" + v.getLong("rpm")));
                    }
                }
                List<String> actual = new ArrayList<>(h.extractOutputValues());
                actual.sort(null);
                expected.sort(null);
                assertThat(actual).as("seed " + seed).isEqualTo(expected);
            }
        }
    }
}
