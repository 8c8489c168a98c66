package io.millrace.bench.millrace;

import io.millrace.api.functions.Collector;
import io.millrace.api.functions.FlatMapFunction;
import io.millrace.api.functions.MapFunction;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowBuilder;
import io.millrace.api.row.RowType;
import io.millrace.bench.workload.Bid;
import io.millrace.bench.workload.Event;
import io.millrace.bench.workload.Query;
import io.millrace.bench.workload.Reading;
import java.util.EnumSet;
import java.util.Set;

/**
 * The benchmark queries in Millrace SQL, in the text of the flink-sql engine's queries ({@code FlinkSqlQueries}) where
 * the SQL layer runs them, over tables with the flink-sql engine's columns: {@code bid} (auction, bidder, price,
 * channel, url, dateTime, rowtime) and {@code reading} (key, value, time, rowtime), {@code rowtime} the record's
 * event time as a {@code TIMESTAMP_LTZ(3)} and the table's event-time attribute.
 */
final class MillraceSqlQueries {
    /** The queries the SQL layer runs: projections, filters and window aggregations (append-only). */
    static final Set<Query> SUPPORTED = EnumSet.of(Query.Q0, Query.Q1, Query.Q2, Query.SLIDING);

    /** {@code bid}: a {@link Bid}'s fields, then {@code rowtime}. */
    static final RowType BID = RowType.builder()
            .field("auction", FieldType.BIGINT)
            .field("bidder", FieldType.BIGINT)
            .field("price", FieldType.BIGINT)
            .field("channel", FieldType.STRING)
            .field("url", FieldType.STRING)
            .field("dateTime", FieldType.BIGINT)
            .field("rowtime", FieldType.TIMESTAMP)
            .build();

    /** {@code reading}: a {@link Reading}'s fields, then {@code rowtime}. */
    static final RowType READING = RowType.builder()
            .field("key", FieldType.BIGINT)
            .field("value", FieldType.DOUBLE)
            .field("time", FieldType.BIGINT)
            .field("rowtime", FieldType.TIMESTAMP)
            .build();

    private MillraceSqlQueries() {}

    /** Why the SQL layer cannot run {@code q} yet, or null if it can. */
    static String missing(Query q) {
        return switch (q) {
            case Q0, Q1, Q2, SLIDING -> null;
            case Q3, Q4, Q8, IJOIN, TJOIN -> "joins";
            case Q5, Q7 -> "window Top-N (ROW_NUMBER over a window)";
            case COUNTS, TTL -> "OVER aggregations";
            case SESSION -> "SESSION windows";
        };
    }

    /**
     * The SQL of {@code q}. q0–q2 are the flink-sql engine's text; sliding is too, except that the window's
     * {@code window_end} stands for Flink's {@code window_time} (the SQL layer has no {@code window_time} yet), so that
     * a result row is (sensor, average, window end) and is stamped with the window's end - 1 ms, as the other engines'.
     */
    static String sql(Query q) {
        return switch (q) {
            case Q0 -> "SELECT auction, bidder, price, channel, url, `dateTime`, rowtime FROM bid";
            case Q1 -> "SELECT auction, bidder, price * 908 / 1000 AS price, channel, url, `dateTime`, rowtime FROM bid";
            case Q2 -> "SELECT auction, price, rowtime FROM bid WHERE MOD(auction, " + Query.Q2_MODULUS + ") = 0";
            case SLIDING -> "SELECT `key`, AVG(`value`) AS average, window_end"
                    + " FROM TABLE(HOP(TABLE reading, DESCRIPTOR(rowtime), " + interval(Query.SLIDING_SLIDE) + ", "
                    + interval(Query.SLIDING_SIZE) + "))"
                    + " GROUP BY `key`, window_start, window_end";
            default -> throw new IllegalArgumentException("millrace-sql has no " + q.id() + ": the SQL layer has no " + missing(q) + " yet");
        };
    }

    /** A whole number of seconds as an SQL interval. */
    private static String interval(long ms) {
        if (ms % 1000 != 0) {
            throw new IllegalArgumentException(ms + " ms is not a whole number of seconds");
        }
        return "INTERVAL '" + ms / 1000 + "' SECOND";
    }

    /** The bids of the Nexmark events as {@link #BID} rows; people and auctions are left out. */
    static final class BidRows implements FlatMapFunction<Event, Row> {
        private static final long serialVersionUID = 1L;
        private transient RowBuilder builder;

        @Override
        public void flatMap(Event e, Collector<Row> out) {
            if (!(e instanceof Bid b)) {
                return;
            }
            if (builder == null) {
                builder = Row.builder(BID);
            }
            out.collect(builder.setLong(0, b.auction()).setLong(1, b.bidder()).setLong(2, b.price()).setString(3, b.channel())
                    .setString(4, b.url()).setLong(5, b.dateTime()).setTimestamp(6, b.dateTime()).build());
        }
    }

    /** Readings as {@link #READING} rows. */
    static final class ReadingRows implements MapFunction<Reading, Row> {
        private static final long serialVersionUID = 1L;
        private transient RowBuilder builder;

        @Override
        public Row map(Reading r) {
            if (builder == null) {
                builder = Row.builder(READING);
            }
            return builder.setLong(0, r.key()).setDouble(1, r.value()).setLong(2, r.time()).setTimestamp(3, r.time()).build();
        }
    }
}
