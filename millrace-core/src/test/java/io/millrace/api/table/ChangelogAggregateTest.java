package io.millrace.api.table;

import static io.millrace.api.table.Changelogs.SENSOR;
import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.RetractingAggregateFunction;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.Windows;
import io.millrace.runtime.process.KeyedProcessOperator;
import io.millrace.testing.OneInputOperatorHarness;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Aggregations over changelogs retract: the result changelog replays into the batch aggregation of the final table. */
class ChangelogAggregateTest {
    static final RowType TOTALS = RowType.builder().field("machine", FieldType.STRING).field("sum", FieldType.BIGINT)
            .field("sensors", FieldType.BIGINT).build();

    record Total(long sum, long count) {}

    // tag::retract[]
    /** Sum and count of the sensors' values; retracting a row takes its value out again. */
    static final class SumOfValues implements RetractingAggregateFunction<Row, long[], Total> {
        @Override
        public long[] createAccumulator() {
            return new long[2];
        }

        @Override
        public long[] add(Row row, long[] acc) {
            acc[0] += row.getLong(2);
            acc[1]++;
            return acc;
        }

        @Override
        public long[] retract(Row row, long[] acc) {
            acc[0] -= row.getLong(2);
            acc[1]--;
            return acc;
        }

        @Override
        public Total getResult(long[] acc) {
            return new Total(acc[0], acc[1]);
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            return new long[] {a[0] + b[0], a[1] + b[1]};
        }
    }
    // end::retract[]

    @Test
    void randomChangelog_totalsPerMachine_replayIntoTheBatchTotalsOfTheFinalTable() {
        for (long seed = 11; seed <= 13; seed++) {
            Changelogs.Generated input = Changelogs.random(seed, 3_000, 80);
            Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
            CollectSink<Row> out = new CollectSink<>();
            // tag::aggregate[]
            KeyedTable<String> sensors = KeyedTable.fromChangelog(pipeline.fromCollection(input.changelog()), r -> r.getString("sensor"));
            sensors.aggregate(r -> r.getString("machine"), new SumOfValues(),
                            (machine, total) -> Row.of(TOTALS, machine, total.sum(), total.count()))
                    .sinkTo(out);                      // +I, -U/+U per change of a machine's total, -D when it has no sensors
            // end::aggregate[]
            pipeline.execute("totals");

            Map<Object, Row> expected = new HashMap<>();
            Map<String, long[]> batch = new HashMap<>();
            for (Row r : input.table().values()) {
                long[] t = batch.computeIfAbsent(r.getString(1), m -> new long[2]);
                t[0] += r.getLong(2);
                t[1]++;
            }
            batch.forEach((m, t) -> expected.put(m, Row.of(TOTALS, m, t[0], t[1])));
            assertThat(Changelogs.replay(out.results(), r -> r.getString(0))).isEqualTo(expected);
        }
    }

    private static OneInputOperatorHarness<Row, Row> harness() throws Exception {
        ChangelogAggregate<String, long[], Total> aggregate = new ChangelogAggregate<>(new SumOfValues(),
                (machine, total) -> Row.of(TOTALS, machine, total.sum(), total.count()));
        return OneInputOperatorHarness.of(() -> new KeyedProcessOperator<>(aggregate)).name("totals").keyedBy((Row r) -> r.getString(1)).open();
    }

    @Test
    void updatesRetractTheOldRow_andTheLastRetractionDeletesTheGroup() throws Exception {
        try (var h = harness()) {
            h.processElement(Row.of(SENSOR, "s1", "m1", 5L));
            h.processElement(Row.of(SENSOR, "s2", "m1", 3L));
            h.processElement(Row.ofKind(RowKind.UPDATE_BEFORE, SENSOR, "s1", "m1", 5L));
            h.processElement(Row.ofKind(RowKind.UPDATE_AFTER, SENSOR, "s1", "m1", 9L));
            h.processElement(Row.ofKind(RowKind.DELETE, SENSOR, "s2", "m1", 3L));
            h.processElement(Row.ofKind(RowKind.DELETE, SENSOR, "s1", "m1", 9L));
            assertThat(h.extractOutputValues()).map(Row::toString).containsExactly(
                    "+I[m1, 5, 1]",
                    "-U[m1, 5, 1]", "+U[m1, 8, 2]",
                    "-U[m1, 8, 2]", "+U[m1, 3, 1]",      // s1's old row retracted
                    "-U[m1, 3, 1]", "+U[m1, 12, 2]",     // its new row added
                    "-U[m1, 12, 2]", "+U[m1, 9, 1]",
                    "-D[m1, 9, 1]");
            assertThat(h.restores()).isPositive(); // state went through a snapshot and restore after every input
        }
    }

    @Test
    void aChangeThatLeavesTheResultEqual_emitsNothing() throws Exception {
        RowType sums = RowType.builder().field("machine", FieldType.STRING).field("sum", FieldType.BIGINT).build();
        ChangelogAggregate<String, long[], Total> aggregate = new ChangelogAggregate<>(new SumOfValues(),
                (machine, total) -> Row.of(sums, machine, total.sum()));
        try (var h = OneInputOperatorHarness.of(() -> new KeyedProcessOperator<>(aggregate)).keyedBy((Row r) -> r.getString(1)).open()) {
            h.processElement(Row.of(SENSOR, "s1", "m1", 5L));
            h.processElement(Row.of(SENSOR, "s2", "m1", 0L));
            h.processElement(Row.ofKind(RowKind.DELETE, SENSOR, "s2", "m1", 0L));
            assertThat(h.extractOutputValues()).map(Row::toString).containsExactly("+I[m1, 5]");
        }
    }

    @Test
    void retractionForAGroupWithoutRows_goesToTheRejectedOutput() throws Exception {
        try (var h = harness()) {
            h.processElement(Row.ofKind(RowKind.DELETE, SENSOR, "s1", "m7", 5L));
            h.processElement(Row.of(SENSOR, "s1", "m7", 5L));
            h.processElement(Row.ofKind(RowKind.DELETE, SENSOR, "s1", "m7", 5L));
            h.processElement(Row.ofKind(RowKind.UPDATE_BEFORE, SENSOR, "s1", "m7", 5L));
            assertThat(h.extractOutputValues()).map(Row::toString).containsExactly("+I[m7, 5, 1]", "-D[m7, 5, 1]");
            List<String> rejected = new ArrayList<>();
            h.sideOutputValues(ChangelogAggregate.REJECTED).forEach(r -> rejected.add(r.change() + ": " + r.reason()));
            assertThat(rejected).containsExactly(
                    "-D[s1, m7, 5]: retracts a row from group m7, which holds no rows",
                    "-U[s1, m7, 5]: retracts a row from group m7, which holds no rows");
        }
    }

    @Test
    void aRetractingFunction_isAPlainAggregateFunctionInWindows() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Total> out = new CollectSink<>();
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            rows.add(Row.of(SENSOR, "s" + i % 3, "m1", (long) i));
        }
        pipeline.fromCollection(rows)
                .assignTimestampsAndWatermarks(WatermarkStrategy.<Row>monotonous().withTimestampAssigner((r, ts) -> r.getLong(2) * 1_000))
                .keyBy(r -> r.getString(1))
                .window(Windows.tumbling(Duration.ofSeconds(50)))
                .aggregate(new SumOfValues())
                .sinkTo(out);
        pipeline.execute("windows");
        assertThat(out.results()).containsExactlyInAnyOrder(new Total(49 * 50 / 2, 50), new Total((50 + 99) * 50 / 2, 50));
    }
}
