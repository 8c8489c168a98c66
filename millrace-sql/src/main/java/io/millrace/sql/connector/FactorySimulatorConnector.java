package io.millrace.sql.connector;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.functions.MapFunction;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.Sink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.sim.FactoryEvent;
import io.millrace.sim.FactorySimulator;
import io.millrace.sim.SensorReading;
import io.millrace.sim.SimulatorConfig;
import io.millrace.sim.SpindleEvent;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code 'connector' = 'factory-simulator'}: the events of Millrace's factory simulator as rows. A table declares any
 * of the columns {@code event_type STRING} ({@code reading} or {@code spindle}), {@code machine_id STRING},
 * {@code sensor STRING} ({@code vibration}, {@code temperature}, {@code pressure}; null for spindle events),
 * {@code value DOUBLE} (null for spindle events), {@code state STRING} ({@code RUNNING}, {@code STOPPED}; null for
 * readings), {@code event_time TIMESTAMP_LTZ(3)} and {@code seq BIGINT}. Options, with the simulator's defaults:
 * {@code seed}, {@code machines}, {@code events-per-second}, {@code speedup} (a number or {@code unlimited}),
 * {@code max-events}, {@code duration}, {@code max-out-of-orderness}, {@code late-fraction},
 * {@code anomaly-probability}.
 */
final class FactorySimulatorConnector implements TableConnector {
    private static final Map<String, FieldType> COLUMNS = new LinkedHashMap<>();

    static {
        COLUMNS.put("event_type", FieldType.STRING);
        COLUMNS.put("machine_id", FieldType.STRING);
        COLUMNS.put("sensor", FieldType.STRING);
        COLUMNS.put("value", FieldType.DOUBLE);
        COLUMNS.put("state", FieldType.STRING);
        COLUMNS.put("event_time", FieldType.TIMESTAMP);
        COLUMNS.put("seq", FieldType.BIGINT);
    }

    @Override
    public String name() {
        return "factory-simulator";
    }

    @Override
    public Opened open(RowType type, ConnectorOptions options) {
        int[] columns = new int[type.size()];
        for (int i = 0; i < type.size(); i++) {
            FieldType expected = COLUMNS.get(type.name(i));
            if (expected == null) {
                throw new ConnectorException("table '" + options.table() + "': connector 'factory-simulator' has no column '" + type.name(i)
                        + "'; its columns are " + String.join(", ", COLUMNS.keySet()));
            }
            if (expected != type.type(i)) {
                throw new ConnectorException("table '" + options.table() + "': column '" + type.name(i) + "' of connector 'factory-simulator' is "
                        + expected + ", not " + type.type(i));
            }
            columns[i] = java.util.List.copyOf(COLUMNS.keySet()).indexOf(type.name(i));
        }
        SimulatorConfig.Builder b = SimulatorConfig.builder();
        try {
            String seed = options.get("seed");
            if (seed != null) {
                b.seed(options.getLong("seed", 42, Long.MIN_VALUE));
            }
            if (options.get("machines") != null) {
                b.machines((int) options.getLong("machines", 10, 1));
            }
            if (options.get("events-per-second") != null) {
                b.eventsPerSecond(options.getLong("events-per-second", 1000, 1));
            }
            String speedup = options.get("speedup");
            if (speedup != null) {
                if (speedup.equalsIgnoreCase("unlimited")) {
                    b.unlimitedSpeed();
                } else {
                    b.speedup(options.getDouble("speedup", 1));
                }
            }
            if (options.get("max-events") != null) {
                b.maxEvents(options.getLong("max-events", 0, 1));
            }
            if (options.get("duration") != null) {
                b.duration(options.getDuration("duration", null));
            }
            if (options.get("max-out-of-orderness") != null) {
                b.maxOutOfOrderness(options.getDuration("max-out-of-orderness", null));
            }
            if (options.get("late-fraction") != null) {
                b.lateFraction(options.getDouble("late-fraction", 0));
            }
            if (options.get("anomaly-probability") != null) {
                b.anomalyProbability(options.getDouble("anomaly-probability", 0));
            }
        } catch (IllegalArgumentException e) {
            throw new ConnectorException("table '" + options.table() + "': " + e.getMessage());
        }
        SimulatorConfig config = b.build();
        ToRow toRow = new ToRow(type, columns);
        return new Opened() {
            @Override
            public DataStream<Row> source(Pipeline pipeline, String name, WatermarkStrategy<Row> watermarks) {
                // the simulator's events become rows after the source: watermarks per subtask, after the conversion
                return pipeline.fromSource(new FactorySimulator(config), WatermarkStrategy.noWatermarks(), name).map(toRow).name(name + " (rows)")
                        .assignTimestampsAndWatermarks(watermarks).name(name + " (watermarks)");
            }

            @Override
            public Sink<Row> sink() {
                return null;
            }

            @Override
            public String describe() {
                return "factory-simulator, machines=" + config.machines() + ", seed=" + config.seed();
            }
        };
    }

    /** A simulator event as a row of the declared columns. */
    record ToRow(RowType type, int[] columns) implements MapFunction<FactoryEvent, Row> {
        @Override
        public Row map(FactoryEvent event) {
            Object[] v = new Object[columns.length];
            for (int i = 0; i < columns.length; i++) {
                v[i] = value(event, columns[i]);
            }
            return Row.of(type, v);
        }

        private static Object value(FactoryEvent e, int column) {
            if (e instanceof SensorReading r) {
                return switch (column) {
                    case 0 -> "reading";
                    case 1 -> r.machineId();
                    case 2 -> r.sensor().name().toLowerCase(Locale.ROOT);
                    case 3 -> r.value();
                    case 4 -> null;
                    case 5 -> r.eventTime();
                    default -> r.seq();
                };
            }
            SpindleEvent s = (SpindleEvent) e;
            return switch (column) {
                case 0 -> "spindle";
                case 1 -> s.machineId();
                case 2, 3 -> null;
                case 4 -> s.state().name();
                case 5 -> s.eventTime();
                default -> s.seq();
            };
        }
    }
}
