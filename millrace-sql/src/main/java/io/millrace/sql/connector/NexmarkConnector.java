package io.millrace.sql.connector;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowBuilder;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.Sink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.generator.GeneratorFunction;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.sim.SimulatorConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code 'connector' = 'nexmark'}: the events of the Nexmark benchmark ({@link NexmarkGenerator}), one row per event,
 * with the schema and option names of the benchmark's own Flink connector: {@code event_type INT} (0 person, 1
 * auction, 2 bid) and the nested {@code person}, {@code auction} and {@code bid} ROW columns, only the one of the
 * event's type set. A table declares any of these columns, and of each ROW any of its fields, with their types.
 *
 * <ul>
 *   <li>{@code first-event.rate} (default 10000): events per second, both the pace of the source and the spacing
 *   of event time; {@code next-event.rate} (default: the first) is accepted and, as in the benchmark's Flink
 *   connector, does not change the rate;</li>
 *   <li>{@code events.num} (default 0: unbounded): how many events;</li>
 *   <li>{@code person.proportion}, {@code auction.proportion}, {@code bid.proportion} (defaults 1, 3, 46);</li>
 *   <li>{@code speedup} (Millrace's own; default 1): a number, the source emits {@code first-event.rate * speedup}
 *   events per wall-clock second, or {@code unlimited}, as fast as the job takes them; event time is the same.</li>
 * </ul>
 *
 * Event time starts at 2026-01-01T00:00:00Z (not the wall clock), so that runs are reproducible.
 */
final class NexmarkConnector implements TableConnector {
    /** The columns a nexmark table may declare, with the fields of its ROW columns. */
    static final Map<String, Map<String, FieldType>> SCHEMA = new LinkedHashMap<>();

    static {
        SCHEMA.put("event_type", null);
        SCHEMA.put("person", fields("id", FieldType.BIGINT, "name", FieldType.STRING, "emailAddress", FieldType.STRING,
                "creditCard", FieldType.STRING, "city", FieldType.STRING, "state", FieldType.STRING, "dateTime", FieldType.TIMESTAMP,
                "extra", FieldType.STRING));
        SCHEMA.put("auction", fields("id", FieldType.BIGINT, "itemName", FieldType.STRING, "description", FieldType.STRING,
                "initialBid", FieldType.BIGINT, "reserve", FieldType.BIGINT, "dateTime", FieldType.TIMESTAMP, "expires", FieldType.TIMESTAMP,
                "seller", FieldType.BIGINT, "category", FieldType.BIGINT, "extra", FieldType.STRING));
        SCHEMA.put("bid", fields("auction", FieldType.BIGINT, "bidder", FieldType.BIGINT, "price", FieldType.BIGINT, "channel", FieldType.STRING,
                "url", FieldType.STRING, "dateTime", FieldType.TIMESTAMP, "extra", FieldType.STRING));
    }

    private static Map<String, FieldType> fields(Object... nameAndType) {
        Map<String, FieldType> m = new LinkedHashMap<>();
        for (int i = 0; i < nameAndType.length; i += 2) {
            m.put((String) nameAndType[i], (FieldType) nameAndType[i + 1]);
        }
        return m;
    }

    @Override
    public String name() {
        return "nexmark";
    }

    @Override
    public Opened open(RowType type, ConnectorOptions options) {
        checkSchema(type, options.table());
        double rate = options.getDouble("first-event.rate", 10_000);
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw options.invalid("first-event.rate", options.get("first-event.rate"), "a positive number of events per second");
        }
        double next = options.getDouble("next-event.rate", rate);
        if (!(next > 0) || Double.isInfinite(next)) {
            throw options.invalid("next-event.rate", options.get("next-event.rate"), "a positive number of events per second");
        }
        long events = options.getLong("events.num", 0, 0);
        int person = (int) options.getLong("person.proportion", 1, 1);
        int auction = (int) options.getLong("auction.proportion", 3, 1);
        int bid = (int) options.getLong("bid.proportion", 46, 0);
        String speedupText = options.get("speedup");
        double pace;
        if (speedupText != null && speedupText.equalsIgnoreCase("unlimited")) {
            pace = Double.POSITIVE_INFINITY;
        } else {
            double speedup = options.getDouble("speedup", 1);
            if (!(speedup > 0) || Double.isInfinite(speedup)) {
                throw options.invalid("speedup", speedupText, "a positive number, or unlimited");
            }
            pace = rate * speedup;
        }
        NexmarkGenerator generator = new NexmarkGenerator(SimulatorConfig.DEFAULT_START, rate, person, auction, bid);
        EventRows rows = new EventRows(generator, type);
        return new Opened() {
            @Override
            public DataStream<Row> source(Pipeline pipeline, String name, WatermarkStrategy<Row> watermarks) {
                GeneratorSource.Builder<Row> b = GeneratorSource.builder(rows);
                if (Double.isInfinite(pace)) {
                    b.unlimitedRate();
                } else {
                    b.ratePerSecond(pace);
                }
                if (events > 0) {
                    b.count(events);
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
                return "nexmark, first-event.rate=" + rate + (events > 0 ? ", events.num=" + events : "") + ", proportions=" + person + "/"
                        + auction + "/" + bid;
            }
        };
    }

    /** Fails naming the first column or nested field that is not in the benchmark's schema or has another type. */
    private static void checkSchema(RowType type, String table) {
        for (int i = 0; i < type.size(); i++) {
            String column = type.name(i);
            if (!SCHEMA.containsKey(column)) {
                throw new ConnectorException("table '" + table + "' (connector 'nexmark'): no column '" + column + "' in Nexmark events; "
                        + "the columns are " + schemaText());
            }
            Map<String, FieldType> fields = SCHEMA.get(column);
            if (fields == null) {
                if (type.type(i) != FieldType.INT) {
                    throw new ConnectorException("table '" + table + "' (connector 'nexmark'): column 'event_type' is INT, not " + type.typeName(i));
                }
                continue;
            }
            if (type.type(i) != FieldType.ROW) {
                throw new ConnectorException("table '" + table + "' (connector 'nexmark'): column '" + column + "' is a ROW of " + fields.keySet()
                        + ", not " + type.typeName(i));
            }
            RowType nested = type.rowType(i);
            for (int f = 0; f < nested.size(); f++) {
                FieldType want = fields.get(nested.name(f));
                if (want == null) {
                    throw new ConnectorException("table '" + table + "' (connector 'nexmark'): " + column + " has no field '" + nested.name(f)
                            + "'; its fields are " + fields.keySet());
                }
                if (nested.type(f) != want) {
                    throw new ConnectorException("table '" + table + "' (connector 'nexmark'): field " + column + "." + nested.name(f) + " is "
                            + sqlName(want) + ", not " + nested.typeName(f));
                }
                if (!nested.isNullable(f)) {
                    throw new ConnectorException("table '" + table + "' (connector 'nexmark'): field " + column + "." + nested.name(f)
                            + " must be nullable (events of other types leave the whole ROW null)");
                }
            }
            if (!type.isNullable(i)) {
                throw new ConnectorException("table '" + table + "' (connector 'nexmark'): column '" + column + "' must be nullable: only the ROW "
                        + "of the event's type is set");
            }
        }
    }

    private static String sqlName(FieldType t) {
        return t == FieldType.TIMESTAMP ? "TIMESTAMP(3)" : t.name();
    }

    private static String schemaText() {
        StringBuilder b = new StringBuilder("event_type INT");
        for (Map.Entry<String, Map<String, FieldType>> e : SCHEMA.entrySet()) {
            if (e.getValue() == null) {
                continue;
            }
            b.append(", ").append(e.getKey()).append(" ROW<");
            int k = 0;
            for (Map.Entry<String, FieldType> f : e.getValue().entrySet()) {
                b.append(k++ == 0 ? "" : ", ").append(f.getKey()).append(' ').append(sqlName(f.getValue()));
            }
            b.append('>');
        }
        return b.toString();
    }

    /** Row {@code n}: event {@code n} in the table's columns. */
    static final class EventRows implements GeneratorFunction<Row> {
        private static final long serialVersionUID = 1L;

        private final NexmarkGenerator generator;
        private final RowType type;
        /** Positions in the table's row: of event_type and the three ROW columns (-1 when not declared). */
        private final int eventType;
        private final int person;
        private final int auction;
        private final int bid;
        /** Per ROW column, per declared nested field, its position among the generator's fields of that event. */
        private final int[][] sources;

        EventRows(NexmarkGenerator generator, RowType type) {
            this.generator = generator;
            this.type = type;
            this.eventType = type.indexOf("event_type");
            this.person = type.indexOf("person");
            this.auction = type.indexOf("auction");
            this.bid = type.indexOf("bid");
            this.sources = new int[type.size()][];
            for (int i = 0; i < type.size(); i++) {
                if (type.type(i) == FieldType.ROW) {
                    List<String> order = List.copyOf(SCHEMA.get(type.name(i)).keySet());
                    RowType nested = type.rowType(i);
                    sources[i] = new int[nested.size()];
                    for (int f = 0; f < nested.size(); f++) {
                        sources[i][f] = order.indexOf(nested.name(f));
                    }
                }
            }
        }

        @Override
        public Row apply(long n) {
            int kind = generator.eventType(n);
            RowBuilder b = Row.builder(type);
            for (int i = 0; i < type.size(); i++) {
                if (i != eventType) {
                    b.setNull(i);
                }
            }
            if (eventType >= 0) {
                b.setInt(eventType, kind);
            }
            if (kind == 0 && person >= 0) {
                b.setRow(person, person(generator.person(n)));
            } else if (kind == 1 && auction >= 0) {
                b.setRow(auction, auction(generator.auction(n)));
            } else if (kind == 2 && bid >= 0) {
                b.setRow(bid, bid(generator.bid(n)));
            }
            return b.build();
        }

        // The declared fields of a ROW column, set with the typed setters from the event (by the field's position among
        // the generator's fields of that event, NexmarkConnector.SCHEMA's order).

        private Row person(NexmarkGenerator.Person p) {
            RowBuilder r = Row.builder(type.rowType(person));
            int[] from = sources[person];
            for (int f = 0; f < from.length; f++) {
                switch (from[f]) {
                    case 0 -> r.setLong(f, p.id());
                    case 1 -> r.setString(f, p.name());
                    case 2 -> r.setString(f, p.emailAddress());
                    case 3 -> r.setString(f, p.creditCard());
                    case 4 -> r.setString(f, p.city());
                    case 5 -> r.setString(f, p.state());
                    case 6 -> r.setTimestamp(f, p.dateTime());
                    default -> r.setString(f, p.extra());
                }
            }
            return r.build();
        }

        private Row auction(NexmarkGenerator.Auction a) {
            RowBuilder r = Row.builder(type.rowType(auction));
            int[] from = sources[auction];
            for (int f = 0; f < from.length; f++) {
                switch (from[f]) {
                    case 0 -> r.setLong(f, a.id());
                    case 1 -> r.setString(f, a.itemName());
                    case 2 -> r.setString(f, a.description());
                    case 3 -> r.setLong(f, a.initialBid());
                    case 4 -> r.setLong(f, a.reserve());
                    case 5 -> r.setTimestamp(f, a.dateTime());
                    case 6 -> r.setTimestamp(f, a.expires());
                    case 7 -> r.setLong(f, a.seller());
                    case 8 -> r.setLong(f, a.category());
                    default -> r.setString(f, a.extra());
                }
            }
            return r.build();
        }

        private Row bid(NexmarkGenerator.Bid x) {
            RowBuilder r = Row.builder(type.rowType(bid));
            int[] from = sources[bid];
            for (int f = 0; f < from.length; f++) {
                switch (from[f]) {
                    case 0 -> r.setLong(f, x.auction());
                    case 1 -> r.setLong(f, x.bidder());
                    case 2 -> r.setLong(f, x.price());
                    case 3 -> r.setString(f, x.channel());
                    case 4 -> r.setString(f, x.url());
                    case 5 -> r.setTimestamp(f, x.dateTime());
                    default -> r.setString(f, x.extra());
                }
            }
            return r.build();
        }
    }
}
