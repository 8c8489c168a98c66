package io.millrace.api.table;

import static io.millrace.api.table.Changelogs.SENSOR;
import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.sink.CollectSink;
import io.millrace.runtime.process.KeyedProcessOperator;
import io.millrace.testing.OneInputOperatorHarness;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Stream-table duality: a changelog or upsert stream materializes into a table whose changes replay into the same table. */
class KeyedTableTest {

    private static Row sensor(RowKind kind, String sensor, String machine, long value) {
        return Row.ofKind(kind, SENSOR, sensor, machine, value);
    }

    @Test
    void randomChangelog_materializedAtParallelismTwo_replaysIntoTheFinalTable() {
        for (long seed = 1; seed <= 3; seed++) {
            Changelogs.Generated input = Changelogs.random(seed, 2_000, 60);
            Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
            CollectSink<Row> out = new CollectSink<>();
            CollectSink<RejectedChange> rejected = new CollectSink<>();
            KeyedTable<String> table = KeyedTable.fromChangelog(pipeline.fromCollection(input.changelog()), r -> r.getString(0));
            table.toChangelog().sinkTo(out);
            table.rejected().sinkTo(rejected);
            pipeline.execute("table");

            assertThat(Changelogs.replay(out.results(), r -> r.getString(0))).isEqualTo(input.table());
            assertThat(rejected.results()).isEmpty();
            long equalUpdates = countEqualUpdates(input.changelog());
            assertThat(out.results()).hasSize(input.changelog().size() - 2 * (int) equalUpdates); // equal updates emit nothing
        }
    }

    private static long countEqualUpdates(List<Row> log) {
        long n = 0;
        for (int i = 0; i + 1 < log.size(); i++) {
            if (log.get(i).kind() == RowKind.UPDATE_BEFORE && log.get(i).equals(log.get(i + 1))) {
                n++;
            }
        }
        return n;
    }

    @Test
    void upsertsOfATable_materializeBackIntoTheSameTable_andItsFullChangelog() {
        Changelogs.Generated input = Changelogs.random(7, 2_000, 60);
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Row> upserts = new CollectSink<>();
        CollectSink<Row> changelog = new CollectSink<>();
        // tag::duality[]
        DataStream<Row> changes = pipeline.fromCollection(input.changelog());
        KeyedTable<String> sensors = KeyedTable.fromChangelog(changes, r -> r.getString("sensor"));
        DataStream<Row> latest = sensors.toUpserts();                       // +I/+U: latest row, -D: tombstone
        KeyedTable<String> again = KeyedTable.fromUpserts(latest, r -> r.getString("sensor"));
        again.toChangelog().sinkTo(changelog);                              // +I, -U/+U, -D again
        // end::duality[]
        latest.sinkTo(upserts);
        pipeline.execute("upserts");

        assertThat(upserts.results()).noneMatch(r -> r.kind() == RowKind.UPDATE_BEFORE);
        assertThat(Changelogs.replay(changelog.results(), r -> r.getString(0))).isEqualTo(input.table());
    }

    @Test
    void badChanges_goToTheRejectedOutput_withTheirReason_andChangeNothing() throws Exception {
        Row s1 = sensor(RowKind.INSERT, "s1", "m1", 5);
        try (var h = OneInputOperatorHarness.of(() -> new KeyedProcessOperator<>(new TableMaterializer<String>(false)))
                .name("table").keyedBy((Row r) -> r.getString(0)).open()) {
            h.processElement(sensor(RowKind.DELETE, "s9", "m1", 1));
            h.processElement(sensor(RowKind.UPDATE_BEFORE, "s8", "m1", 1));
            h.processElement(s1);
            h.processElement(s1.withKind(RowKind.UPDATE_AFTER));               // an equal row: no change
            h.processElement(sensor(RowKind.INSERT, "s1", "m2", 6));           // +I of a held key: an update
            h.processElement(sensor(RowKind.DELETE, "s1", "ignored", 0));
            assertThat(h.extractOutputValues()).map(Row::toString)
                    .containsExactly("+I[s1, m1, 5]", "-U[s1, m1, 5]", "+U[s1, m2, 6]", "-D[s1, m2, 6]");
            assertThat(h.sideOutputValues(KeyedTable.REJECTED)).map(RejectedChange::reason)
                    .containsExactly("deletes key s9, which the table does not hold", "updates key s8, which the table does not hold");
            assertThat(h.restores()).isPositive(); // state went through a snapshot and restore after every input
        }
    }

    @Test
    void upserts_tombstoneOfAMissingKeyIsNoChange_andUpdateBeforeIsRejected() throws Exception {
        try (var h = OneInputOperatorHarness.of(() -> new KeyedProcessOperator<>(new TableMaterializer<String>(true)))
                .name("upserts").keyedBy((Row r) -> r.getString(0)).open()) {
            h.processElement(sensor(RowKind.DELETE, "s1", "", 0));
            h.processElement(sensor(RowKind.UPDATE_AFTER, "s1", "m1", 5));
            h.processElement(sensor(RowKind.UPDATE_BEFORE, "s1", "m1", 5));
            h.processElement(sensor(RowKind.UPDATE_AFTER, "s1", "m1", 7));
            h.processElement(sensor(RowKind.DELETE, "s1", "", 0));
            assertThat(h.extractOutputValues()).map(Row::toString)
                    .containsExactly("+I[s1, m1, 5]", "-U[s1, m1, 5]", "+U[s1, m1, 7]", "-D[s1, m1, 7]");
            List<String> reasons = new ArrayList<>();
            h.sideOutputValues(KeyedTable.REJECTED).forEach(r -> reasons.add(r.reason() + " " + r.change()));
            assertThat(reasons).containsExactly("an upsert stream holds no -U records (key s1) -U[s1, m1, 5]");
        }
    }

    @Test
    void replayedUpserts_leaveTheTableAsItWas() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Row> out = new CollectSink<>();
        List<Row> upserts = List.of(sensor(RowKind.UPDATE_AFTER, "s1", "m1", 5), sensor(RowKind.UPDATE_AFTER, "s2", "m1", 6),
                sensor(RowKind.DELETE, "s2", "", 0));
        List<Row> twice = new ArrayList<>(upserts);
        twice.addAll(upserts);
        KeyedTable.fromUpserts(pipeline.fromCollection(twice), r -> r.getString(0)).toChangelog().sinkTo(out);
        pipeline.execute("replay");
        Map<Object, Row> table = Changelogs.replay(out.results(), r -> r.getString(0));
        assertThat(table).isEqualTo(Map.of("s1", sensor(RowKind.INSERT, "s1", "m1", 5)));
    }
}
