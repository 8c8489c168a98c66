package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.table.ChangelogJoin;
import io.millrace.api.table.KeyedTable;
import io.millrace.api.table.RejectedChange;
import io.millrace.api.table.TemporalJoin;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.sim.FactoryEvent;
import io.millrace.sim.FactorySimulator;
import io.millrace.sim.Sensor;
import io.millrace.sim.SensorReading;
import io.millrace.sim.SimulatorConfig;
import io.millrace.sim.SpindleEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The temporal and changelog join examples of docs/joins.md; each runs here on the factory simulator and is checked
 * against a batch recomputation over the same events.
 */
class TableJoinsExamplesTest {
    static final long START = SimulatorConfig.DEFAULT_START;
    static final long MINUTE = 60_000;

    // tag::machine-config[]
    /** A machine's configuration, valid from {@code changedAt}: the vibration it is allowed. */
    static final RowType MACHINE_CONFIG = RowType.builder()
            .field("machine", FieldType.STRING)
            .field("vibrationLimit", FieldType.DOUBLE)
            .field("changedAt", FieldType.TIMESTAMP)
            .build();

    /** The configuration changelog: every machine set up at the start, two changes later on. */
    static List<Row> configChanges() {
        List<Row> changes = new ArrayList<>();
        for (int m = 1; m <= 6; m++) {
            changes.add(Row.of(MACHINE_CONFIG, String.format("M%03d", m), 4.0, START));
        }
        changes.add(Row.ofKind(RowKind.UPDATE_BEFORE, MACHINE_CONFIG, "M002", 4.0, START));
        changes.add(Row.ofKind(RowKind.UPDATE_AFTER, MACHINE_CONFIG, "M002", 6.5, START + 20 * MINUTE)); // limit raised
        changes.add(Row.ofKind(RowKind.DELETE, MACHINE_CONFIG, "M003", 4.0, START + 40 * MINUTE));      // decommissioned
        return changes;
    }
    // end::machine-config[]

    private static SimulatorConfig.Builder floor() {
        return SimulatorConfig.builder().machines(6).eventsPerSecond(30).duration(Duration.ofHours(1)).anomalyProbability(0.6)
                .lateFraction(0).unlimitedSpeed().seed(5);
    }

    /** "M002 7.12 mm/s, limit 6.5" or "M003 1.20 mm/s, no configuration", as the example prints. */
    static String describe(SensorReading r, Row config) {
        return String.format("%s %.2f mm/s, %s", r.machineId(), r.value(),
                config == null ? "no configuration" : "limit " + config.getDouble("vibrationLimit"));
    }

    @Test
    void temporalJoin_vibrationReadingsSeeTheMachinesConfigurationAsItWasAtTheirTime() {
        FactorySimulator factory = new FactorySimulator(floor().build());
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> checked = new CollectSink<>();
        CollectSink<SensorReading> lateReadings = new CollectSink<>();
        CollectSink<RejectedChange> rejected = new CollectSink<>();
        CollectSink<SensorReading> allVibration = new CollectSink<>();
        // tag::temporal[]
        OutputTag<SensorReading> late = new OutputTag<>("late-vibration");
        DataStream<SensorReading> vibration = pipeline.fromSource(factory, factory.watermarkStrategy(), "factory")
                .flatMap(FactoryEvent.readings())
                .filter(r -> r.sensor() == Sensor.VIBRATION);
        DataStream<Row> config = pipeline.fromCollection(configChanges())
                .assignTimestampsAndWatermarks(WatermarkStrategy.<Row>monotonous()
                        .withTimestampAssigner((row, t) -> row.getTimestamp("changedAt")));

        DataStream<String> withLimits = TemporalJoin
                .of(vibration.keyBy(SensorReading::machineId), config.keyBy(row -> row.getString("machine")))
                .sideOutputLateProbes(late)                        // readings behind the watermark
                .leftOuter((reading, limit) -> describe(reading, limit)); // limit is null when none was valid
        withLimits.sinkTo(checked);
        withLimits.getSideOutput(late).sinkTo(lateReadings);
        withLimits.getSideOutput(TemporalJoin.REJECTED).sinkTo(rejected);
        // end::temporal[]
        vibration.sinkTo(allVibration);
        pipeline.execute("vibration against the configuration of its time");

        List<String> expected = new ArrayList<>();
        for (SensorReading r : allVibration.results()) {
            Row valid = null;
            for (Row c : configChanges()) {
                if (c.kind() != RowKind.UPDATE_BEFORE && c.getString("machine").equals(r.machineId())
                        && c.getTimestamp("changedAt") <= r.eventTime()) {
                    valid = c.kind().isAddition() ? c.withKind(RowKind.INSERT) : null;
                }
            }
            expected.add(describe(r, valid));
        }
        assertThat(expected).as("readings seeing the raised limit").anyMatch(s -> s.startsWith("M002") && s.endsWith("limit 6.5"));
        assertThat(expected).as("readings after M003 was decommissioned").anyMatch(s -> s.startsWith("M003") && s.endsWith("no configuration"));
        assertThat(lateReadings.results()).isEmpty();
        assertThat(rejected.results()).isEmpty();
        assertThat(checked.results()).containsExactlyInAnyOrderElementsOf(expected);
    }

    // tag::machine-state[]
    static final RowType SPINDLE = RowType.builder().field("machine", FieldType.STRING).field("spindle", FieldType.STRING).build();
    static final RowType MACHINE_STATUS = RowType.builder()
            .field("machine", FieldType.STRING)
            .field("spindle", FieldType.STRING)
            .nullableField("vibrationLimit", FieldType.DOUBLE)
            .build();

    /** A machine's spindle state with its vibration limit; no limit for a machine without a configuration. */
    static Row status(Row spindle, Row config) {
        return Row.of(MACHINE_STATUS, spindle.getString("machine"), spindle.getString("spindle"),
                config == null ? null : config.getDouble("vibrationLimit"));
    }
    // end::machine-state[]

    @Test
    void changelogJoin_theLatestSpindleStateOfEachMachineWithItsCurrentConfiguration() {
        FactorySimulator factory = new FactorySimulator(floor().build());
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Row> statusChanges = new CollectSink<>();
        CollectSink<SpindleEvent> allSpindleEvents = new CollectSink<>();
        // tag::changelog[]
        DataStream<SpindleEvent> spindles = pipeline.fromSource(factory, factory.watermarkStrategy(), "factory")
                .flatMap(FactoryEvent.spindleEvents());
        KeyedTable<String> spindleStates = KeyedTable.fromUpserts(
                spindles.map(e -> Row.of(SPINDLE, e.machineId(), e.state().name())), row -> row.getString("machine"));
        KeyedTable<String> configs = KeyedTable.fromChangelog(pipeline.fromCollection(configChanges()),
                row -> row.getString("machine"));

        DataStream<Row> status = ChangelogJoin
                .of(spindleStates.toChangelog().keyBy(row -> row.getString("machine")),
                        configs.toChangelog().keyBy(row -> row.getString("machine")))
                .stateRetention(Duration.ofDays(7), Duration.ofDays(365))  // forget machines silent for a week
                .leftOuter(TableJoinsExamplesTest::status);
        status.sinkTo(statusChanges);
        // end::changelog[]
        spindles.sinkTo(allSpindleEvents);
        pipeline.execute("machine status");

        Map<String, String> lastSpindle = new LinkedHashMap<>();
        allSpindleEvents.results().stream().sorted((a, b) -> Long.compare(a.seq(), b.seq()))
                .forEach(e -> lastSpindle.put(e.machineId(), e.state().name()));
        Map<String, Double> finalLimits = Map.of("M001", 4.0, "M002", 6.5, "M004", 4.0, "M005", 4.0, "M006", 4.0);
        Map<Row, Integer> expected = new HashMap<>();
        lastSpindle.forEach((m, s) -> expected.put(Row.of(MACHINE_STATUS, m, s, finalLimits.get(m)), 1));
        Map<Row, Integer> applied = new HashMap<>();
        for (Row r : statusChanges.results()) {
            applied.merge(r.withKind(RowKind.INSERT), r.kind().isAddition() ? 1 : -1, Integer::sum);
        }
        applied.values().removeIf(n -> n == 0);
        assertThat(statusChanges.results()).as("retractions as spindles stop and start").anyMatch(r -> r.kind() == RowKind.DELETE);
        assertThat(expected).hasSize(6);
        assertThat(applied).isEqualTo(expected);
    }
}
