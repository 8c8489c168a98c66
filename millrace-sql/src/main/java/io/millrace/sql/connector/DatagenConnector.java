package io.millrace.sql.connector;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.Sink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.generator.GeneratorFunction;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.sim.SimulatorConfig;
import io.millrace.sql.runtime.Values;

/**
 * {@code 'connector' = 'datagen'}: generated rows, Flink's option names. Row {@code i} is a pure function of
 * {@code i} and the options, so a job restored from a checkpoint generates exactly the rows it had not emitted.
 *
 * <ul>
 *   <li>{@code rows-per-second} (default 10000) and {@code number-of-rows} (default: unbounded, or the length of a
 *   sequence field);</li>
 *   <li>{@code fields.<f>.kind}: {@code random} (default) or {@code sequence};</li>
 *   <li>random numbers: {@code fields.<f>.min}, {@code fields.<f>.max}; random strings: {@code fields.<f>.length}
 *   (default 10); sequences: {@code fields.<f>.start}, {@code fields.<f>.end};</li>
 *   <li>timestamps advance with the row index at {@code rows-per-second} from {@code fields.<f>.start}
 *   (default {@code 2026-01-01 00:00:00}), so that event time is reproducible;</li>
 *   <li>{@code seed} (default 0; Millrace's own): the random values of another seed differ.</li>
 * </ul>
 */
final class DatagenConnector implements TableConnector {
    @Override
    public String name() {
        return "datagen";
    }

    @Override
    public Opened open(RowType type, ConnectorOptions options) {
        double rate = options.getDouble("rows-per-second", 10_000);
        if (rate <= 0) {
            throw options.invalid("rows-per-second", options.get("rows-per-second"), "a positive number");
        }
        long seed = options.getLong("seed", 0, Long.MIN_VALUE);
        long[] sequenceLength = {-1};
        FieldGen[] gens = fieldGens(type, "fields.", seed, rate, options, sequenceLength, true);
        long rows = options.getLong("number-of-rows", sequenceLength[0] >= 0 ? sequenceLength[0] : -1, 0);
        if (sequenceLength[0] >= 0 && rows > sequenceLength[0]) {
            throw options.invalid("number-of-rows", Long.toString(rows), "at most " + sequenceLength[0] + ", the length of the sequence fields");
        }
        RowGenerator generator = new RowGenerator(type, gens);
        long count = rows;
        return new Opened() {
            @Override
            public DataStream<Row> source(Pipeline pipeline, String name, WatermarkStrategy<Row> watermarks) {
                GeneratorSource.Builder<Row> b = GeneratorSource.builder(generator).ratePerSecond(rate);
                if (count >= 0) {
                    b.count(count);
                } else {
                    b.unbounded();
                }
                return pipeline.fromSource(b.build(), watermarks, name);
            }

            @Override
            public Sink<Row> sink() {
                return null;
            }

            @Override
            public String describe() {
                return "datagen, rows-per-second=" + rate + (count >= 0 ? ", number-of-rows=" + count : "");
            }
        };
    }

    /**
     * The generators of the fields of {@code type}, options under {@code prefix} ({@code fields.<f>.} at the top, {@code
     * fields.<row>.<f>.} in a ROW column); {@code sequenceLength[0]} collects the shortest sequence.
     */
    private static FieldGen[] fieldGens(RowType type, String prefix, long seed, double rate, ConnectorOptions options, long[] sequenceLength,
            boolean top) {
        FieldGen[] gens = new FieldGen[type.size()];
        for (int f = 0; f < type.size(); f++) {
            String p = prefix + type.name(f) + ".";
            String kind = options.choice(p + "kind", "random", "random", "sequence");
            FieldType t = type.type(f);
            if (kind.equals("sequence")) {
                if (!top || t != FieldType.INT && t != FieldType.BIGINT && t != FieldType.STRING) {
                    throw options.invalid(p + "kind", "sequence", "random for a " + type.typeName(f) + " field (sequences are INT, BIGINT or STRING "
                            + "columns)");
                }
                long start = options.getLong(p + "start", 0, Long.MIN_VALUE);
                long end = options.getLong(p + "end", Long.MAX_VALUE, start);
                long length = end - start + 1;
                sequenceLength[0] = sequenceLength[0] < 0 ? length : Math.min(sequenceLength[0], length);
                gens[f] = new Sequence(start, t);
            } else if (t == FieldType.TIMESTAMP) {
                String start = options.get(p + "start");
                long origin;
                try {
                    origin = start == null ? SimulatorConfig.DEFAULT_START : Values.parseTimestamp(start);
                } catch (IllegalArgumentException e) {
                    throw options.invalid(p + "start", start, "a timestamp like 2026-01-01 00:00:00");
                }
                gens[f] = new Clock(origin, 1000.0 / rate);
            } else if (t == FieldType.STRING) {
                gens[f] = new RandomString(seed, f, (int) options.getLong(p + "length", 10, 1));
            } else if (t == FieldType.BOOLEAN) {
                gens[f] = new RandomNumber(seed, f, 0, 1, t);
            } else if (t == FieldType.ROW) {
                gens[f] = new NestedRow(type.rowType(f), fieldGens(type.rowType(f), p, mix(seed, f, 997), rate, options, sequenceLength, false));
            } else if (t == FieldType.DATE || t == FieldType.TIME) {
                gens[f] = new RandomNumber(seed, f, 0, t == FieldType.DATE ? 36_524 : 86_399_999, FieldType.INT);
            } else {
                boolean integral = t == FieldType.INT || t == FieldType.BIGINT;
                double defaultMax = t == FieldType.DECIMAL ? Math.min(Math.pow(10, type.precision(f) - type.scale(f)) - 1, 1e15)
                        : integral ? (t == FieldType.INT ? Integer.MAX_VALUE : Long.MAX_VALUE) : 1.0;
                double min = options.getDouble(p + "min", 0);
                double max = options.getDouble(p + "max", defaultMax);
                if (max < min) {
                    throw options.invalid(p + "max", options.get(p + "max"), "a number not below " + p + "min (" + min + ")");
                }
                gens[f] = t == FieldType.DECIMAL ? new RandomDecimal(new RandomNumber(seed, f, min, max, FieldType.DOUBLE), type.scale(f))
                        : new RandomNumber(seed, f, min, max, t);
            }
        }
        return gens;
    }

    /** The value of one field of row {@code index}. */
    interface FieldGen extends java.io.Serializable {
        Object value(long index);
    }

    static long mix(long seed, long index, int field) {
        long z = seed + index * 0x9E3779B97F4A7C15L + (field + 1) * 0xD1B54A32D192ED03L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    record Sequence(long start, FieldType type) implements FieldGen {
        @Override
        public Object value(long index) {
            long v = start + index;
            return type == FieldType.INT ? (Object) (int) v : type == FieldType.BIGINT ? (Object) v : Long.toString(v);
        }
    }

    record Clock(long origin, double millisPerRow) implements FieldGen {
        @Override
        public Object value(long index) {
            return origin + (long) (index * millisPerRow);
        }
    }

    record RandomString(long seed, int field, int length) implements FieldGen {
        @Override
        public Object value(long index) {
            char[] c = new char[length];
            long bits = mix(seed, index, field);
            for (int i = 0; i < length; i++) {
                if (i % 12 == 11) {
                    bits = mix(bits, index, field);
                }
                c[i] = (char) ('a' + (int) Long.remainderUnsigned(bits >>> (5 * (i % 12)), 26));
            }
            return new String(c);
        }
    }

    record RandomNumber(long seed, int field, double min, double max, FieldType type) implements FieldGen {
        @Override
        public Object value(long index) {
            long bits = mix(seed, index, field);
            double unit = (bits >>> 11) * 0x1.0p-53;
            return switch (type) {
                case BOOLEAN -> (bits & 1) == 1;
                case INT -> (int) (min + Math.floor(unit * (max - min + 1)));
                case BIGINT -> (long) (min + Math.floor(unit * (max - min + 1)));
                case FLOAT -> (float) (min + unit * (max - min));
                default -> min + unit * (max - min);
            };
        }
    }

    record RandomDecimal(RandomNumber number, int scale) implements FieldGen {
        @Override
        public Object value(long index) {
            return java.math.BigDecimal.valueOf((Double) number.value(index)).setScale(scale, java.math.RoundingMode.HALF_UP);
        }
    }

    record NestedRow(RowType type, FieldGen[] fields) implements FieldGen {
        @Override
        public Object value(long index) {
            Object[] values = new Object[fields.length];
            for (int f = 0; f < fields.length; f++) {
                values[f] = fields[f].value(index);
            }
            return Row.of(type, values);
        }
    }

    record RowGenerator(RowType type, FieldGen[] fields) implements GeneratorFunction<Row> {
        @Override
        public Row apply(long index) {
            Object[] values = new Object[fields.length];
            for (int f = 0; f < fields.length; f++) {
                values[f] = fields[f].value(index);
            }
            return Row.of(type, values);
        }
    }
}
