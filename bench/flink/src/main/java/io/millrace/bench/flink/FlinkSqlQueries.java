package io.millrace.bench.flink;

import io.millrace.bench.workload.Auction;
import io.millrace.bench.workload.AuctionTerms;
import io.millrace.bench.workload.Event;
import io.millrace.bench.workload.Nexmark;
import io.millrace.bench.workload.Query;
import io.millrace.bench.workload.Reading;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.config.AggregatePhaseStrategy;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.api.config.OptimizerConfigOptions;
import org.apache.flink.table.api.config.TableConfigOptions;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;

/**
 * The benchmark queries in Flink SQL, as a Flink user tuning for speed writes them: window table functions
 * (sliced windows), window Top-N, mini-batches, local/global aggregation where keys are skewed. Each input stream
 * becomes a view whose {@code rowtime} column is the stream record's timestamp and whose watermark is the source's.
 * Where SQL gives a result other than the DataStream version's, docs/benchmarks.md ("Flink SQL") says how.
 */
final class FlinkSqlQueries {
    /** Mini-batch: at most this long (processing time) and this many rows buffered before an operator works on them. */
    static final Duration MINI_BATCH_LATENCY = Duration.ofMillis(10);
    static final long MINI_BATCH_SIZE = 5_000;

    /**
     * Queries with an operator that works in mini-batches: the joins (q3, q4, q8), group aggregation (q4), local window aggregation and
     * window operators (watermarks forwarded once per mini-batch interval). The others (stateless, or an OVER
     * aggregation, which works row by row) would only gain a pass-through operator.
     */
    static final Set<Query> MINI_BATCH = EnumSet.of(Query.Q3, Query.Q4, Query.Q5, Query.Q7, Query.Q8, Query.SLIDING, Query.SESSION);

    /** Queries whose result is an updating table (a changelog, not an append-only stream). */
    static final Set<Query> UPDATING = EnumSet.of(Query.Q4);

    /**
     * Queries whose result has no time attribute (a regular join turns its inputs' into plain timestamps): the
     * result's time is its last column, which the engine copies into the stream record.
     */
    static final Set<Query> TIME_AS_COLUMN = EnumSet.of(Query.Q3);

    /** Q7's order (Rows.beats): higher price, then earlier, then lower auction and bidder id. */
    private static final String Q7_ORDER = "ORDER BY price DESC, `dateTime` ASC, auction ASC, bidder ASC";

    private FlinkSqlQueries() {}

    /** The table settings of {@code q}: UTC; mini-batches, aggregation phases and state TTL per query. */
    static Configuration settings(Query q) {
        Configuration c = new Configuration();
        c.set(TableConfigOptions.LOCAL_TIME_ZONE, "UTC");
        if (MINI_BATCH.contains(q)) {
            c.set(ExecutionConfigOptions.TABLE_EXEC_MINIBATCH_ENABLED, true);
            c.set(ExecutionConfigOptions.TABLE_EXEC_MINIBATCH_ALLOW_LATENCY, MINI_BATCH_LATENCY);
            c.set(ExecutionConfigOptions.TABLE_EXEC_MINIBATCH_SIZE, MINI_BATCH_SIZE);
        }
        // local/global pays where a local buffer sees a key several times: hot auctions (q4, q5); 10,000 sensors
        // or 999 machines over a 5,000-row buffer hardly repeat (sliding, session)
        c.set(OptimizerConfigOptions.TABLE_OPTIMIZER_AGG_PHASE_STRATEGY,
                q == Query.Q4 || q == Query.Q5 ? AggregatePhaseStrategy.TWO_PHASE : AggregatePhaseStrategy.ONE_PHASE);
        if (q == Query.TTL) {
            c.set(ExecutionConfigOptions.IDLE_STATE_RETENTION, Duration.ofMillis(Query.TTL_MS));
        }
        return c;
    }

    /**
     * Registers the Nexmark views {@code q} reads ({@code bid}, or {@code auction} and {@code person} for the joins,
     * {@code auction_terms} for TJOIN) and returns its result. Only those: each view's filter would otherwise run on
     * every event, unused.
     */
    static Table nexmark(Query q, long eventRate, StreamTableEnvironment t, DataStream<Event> events) {
        if (q == Query.Q3 || q == Query.Q4 || q == Query.Q8 || q == Query.IJOIN) {
            t.createTemporaryView("auction", FlinkNexmarkQueries.auctions(events), eventTime());
        }
        if (q == Query.TJOIN) {
            t.createTemporaryView("auction_terms", t.fromChangelogStream(terms(FlinkNexmarkQueries.auctions(events)), versioned(),
                    ChangelogMode.upsert()));
        }
        if (q == Query.Q3 || q == Query.Q8) {
            t.createTemporaryView("person", FlinkNexmarkQueries.persons(events), eventTime());
        } else {
            t.createTemporaryView("bid", FlinkNexmarkQueries.bids(events), eventTime());
        }
        return t.sqlQuery(sql(q, eventRate));
    }

    /**
     * TJOIN's changelog of auction terms ({@link AuctionTerms}), as the Millrace version: an insert when an auction
     * opens, an update of an older auction's row at the same moment, each stamped with the auction's time.
     */
    static DataStream<Row> terms(DataStream<Auction> auctions) {
        return auctions.flatMap((Auction a, Collector<Row> out) -> {
            AuctionTerms opening = AuctionTerms.opening(a);
            out.collect(Row.ofKind(RowKind.INSERT, opening.auction(), opening.reserve(), opening.category()));
            AuctionTerms revision = AuctionTerms.revision(a);
            if (revision != null) {
                out.collect(Row.ofKind(RowKind.UPDATE_AFTER, revision.auction(), revision.reserve(), revision.category()));
            }
        }).returns(Types.ROW_NAMED(new String[] {"id", "reserve", "category"}, Types.LONG, Types.LONG, Types.LONG)).name("auction-terms");
    }

    /** A versioned table's schema: primary key {@code id}, {@code rowtime} from the stream record, the source's watermark. */
    private static Schema versioned() {
        return Schema.newBuilder()
                .column("id", DataTypes.BIGINT().notNull())
                .column("reserve", DataTypes.BIGINT())
                .column("category", DataTypes.BIGINT())
                .columnByMetadata("rowtime", "TIMESTAMP_LTZ(3)")
                .watermark("rowtime", "SOURCE_WATERMARK()")
                .primaryKey("id")
                .build();
    }

    /** Registers the view {@code reading} and returns {@code q}'s result. */
    static Table telemetry(Query q, StreamTableEnvironment t, DataStream<Reading> readings) {
        t.createTemporaryView("reading", readings, eventTime());
        return t.sqlQuery(sql(q, 0));
    }

    /** A view's schema: the record's fields, plus {@code rowtime} from the stream record and the source's watermark. */
    private static Schema eventTime() {
        return Schema.newBuilder()
                .columnByMetadata("rowtime", "TIMESTAMP_LTZ(3)")
                .watermark("rowtime", "SOURCE_WATERMARK()")
                .build();
    }

    /**
     * The SQL of {@code q}. Each result row ends with its time attribute where it has one (the input row's
     * {@code rowtime}, or {@code window_time}, the window's end - 1 ms), which becomes the stream record's timestamp
     * that the latency probe reads. {@code eventRate}: how fast Nexmark's event time advances (q4's join bound).
     */
    static String sql(Query q, long eventRate) {
        return switch (q) {
            case Q0 -> "SELECT auction, bidder, price, channel, url, `dateTime`, rowtime FROM bid";
            case Q1 -> "SELECT auction, bidder, price * 908 / 1000 AS price, channel, url, `dateTime`, rowtime FROM bid";
            case Q2 -> "SELECT auction, price, rowtime FROM bid WHERE MOD(auction, " + Query.Q2_MODULUS + ") = 0";
            case Q3 -> "SELECT P.name, P.city, P.state, A.id, GREATEST(A.rowtime, P.rowtime) AS rowtime"
                    + " FROM auction AS A JOIN person AS P ON A.seller = P.id"
                    + " WHERE A.category = " + Query.Q3_CATEGORY + " AND P.state IN (" + quoted(Query.Q3_STATES) + ")";
            // as Nexmark's SQL q4: the highest bid before expiry per auction, once it meets the reserve, then the
            // average per category; both updated as bids come (a changelog), not once at expiry. An interval join
            // (a bid comes at most the longest auction's length after its auction) so that join state expires.
            case Q4 -> "SELECT category, AVG(CAST(final AS DOUBLE)) AS average, COUNT(*) AS auctions FROM ("
                    + " SELECT A.id, A.category, MAX(B.price) AS final"
                    + " FROM auction AS A JOIN bid AS B ON A.id = B.auction"
                    + "  AND B.rowtime BETWEEN A.rowtime AND A.rowtime + " + millis(Nexmark.maxAuctionLength(eventRate))
                    + " WHERE B.`dateTime` < A.expires"
                    + " GROUP BY A.id, A.category, A.reserve"
                    + " HAVING MAX(B.price) >= A.reserve)"
                    + " GROUP BY category";
            // the count per auction and window, locally per source subtask then globally (hot auctions), then per
            // window the one with most bids (ties: lower auction id) by window Top-N
            case Q5 -> "SELECT auction, num, window_time FROM ("
                    + " SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY num DESC, auction ASC) AS rn"
                    + " FROM (SELECT auction, window_start, window_end, window_time, COUNT(*) AS num"
                    + "  FROM TABLE(HOP(TABLE bid, DESCRIPTOR(rowtime), " + interval(Query.Q5_SLIDE) + ", " + interval(Query.Q5_SIZE) + "))"
                    + "  GROUP BY auction, window_start, window_end, window_time))"
                    + " WHERE rn = 1";
            // the highest bid per auction and window, then per window: two window Top-Ns, as the DataStream plan
            case Q7 -> "SELECT auction, bidder, price, channel, url, `dateTime`, window_time FROM ("
                    + " SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end " + Q7_ORDER + ") AS rn2"
                    + " FROM (SELECT * FROM ("
                    + "  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, auction " + Q7_ORDER + ") AS rn1"
                    + "  FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(rowtime), " + interval(Query.Q7_SIZE) + ")))"
                    + "  WHERE rn1 = 1))"
                    + " WHERE rn2 = 1";
            case Q8 -> "SELECT P.id, P.name, A.id AS auction, P.window_start, P.window_time FROM"
                    + " (SELECT * FROM TABLE(TUMBLE(TABLE person, DESCRIPTOR(rowtime), " + interval(Query.Q8_SIZE) + "))) AS P"
                    + " JOIN (SELECT * FROM TABLE(TUMBLE(TABLE auction, DESCRIPTOR(rowtime), " + interval(Query.Q8_SIZE) + "))) AS A"
                    + " ON P.id = A.seller AND P.window_start = A.window_start AND P.window_end = A.window_end";
            // a bid at most the longest auction's length after its auction (the interval join's bound), before its
            // auction's own expiry
            case IJOIN -> "SELECT A.id AS auction, B.bidder, B.price, B.`dateTime`, B.rowtime"
                    + " FROM auction AS A JOIN bid AS B ON A.id = B.auction"
                    + "  AND B.rowtime BETWEEN A.rowtime AND A.rowtime + " + millis(Nexmark.maxAuctionLength(eventRate))
                    + " WHERE B.`dateTime` < A.expires";
            // the event-time temporal join with the versioned table of auction terms
            case TJOIN -> "SELECT B.auction, B.bidder, B.price, T.reserve, T.category, B.`dateTime`, B.rowtime"
                    + " FROM bid AS B JOIN auction_terms FOR SYSTEM_TIME AS OF B.rowtime AS T ON B.auction = T.id"
                    + " WHERE B.price >= T.reserve";
            // a running count per auction in processing-time order (as the DataStream version counts in arrival order)
            case COUNTS -> "SELECT auction, num, rowtime FROM ("
                    + " SELECT auction, rowtime, COUNT(*) OVER (PARTITION BY auction ORDER BY proctime"
                    + "  ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS num"
                    + " FROM (SELECT *, PROCTIME() AS proctime FROM bid))"
                    + " WHERE MOD(num, " + Query.COUNTS_EVERY + ") = 0";
            case SLIDING -> "SELECT `key`, AVG(`value`) AS average, window_time"
                    + " FROM TABLE(HOP(TABLE reading, DESCRIPTOR(rowtime), " + interval(Query.SLIDING_SLIDE) + ", "
                    + interval(Query.SLIDING_SIZE) + "))"
                    + " GROUP BY `key`, window_start, window_end, window_time";
            case SESSION -> "SELECT `key`, window_start, window_end, COUNT(*) AS events, window_time"
                    + " FROM TABLE(SESSION(TABLE reading PARTITION BY `key`, DESCRIPTOR(rowtime), " + interval(Query.SESSION_GAP) + "))"
                    + " GROUP BY `key`, window_start, window_end, window_time";
            // counts whose state expires TTL_MS after its last write (table.exec.state.ttl)
            case TTL -> "SELECT `key`, num, rowtime FROM ("
                    + " SELECT `key`, rowtime, COUNT(*) OVER (PARTITION BY `key` ORDER BY proctime"
                    + "  ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS num"
                    + " FROM (SELECT *, PROCTIME() AS proctime FROM reading))"
                    + " WHERE num = " + Query.TTL_THRESHOLD;
        };
    }

    /** A whole number of seconds as an SQL interval. */
    private static String interval(long ms) {
        if (ms % 1000 != 0) {
            throw new IllegalArgumentException(ms + " ms is not a whole number of seconds");
        }
        return "INTERVAL '" + ms / 1000 + "' SECOND";
    }

    /** Milliseconds as an SQL interval. */
    private static String millis(long ms) {
        return String.format(Locale.ROOT, "INTERVAL '%d %02d:%02d:%02d.%03d' DAY TO SECOND",
                ms / 86_400_000, ms / 3_600_000 % 24, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
    }

    private static String quoted(List<String> values) {
        return values.stream().map(v -> "'" + v + "'").collect(Collectors.joining(", "));
    }
}
