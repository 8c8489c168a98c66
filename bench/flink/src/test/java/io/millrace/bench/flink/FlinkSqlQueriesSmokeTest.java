package io.millrace.bench.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.bench.workload.BenchOptions;
import io.millrace.bench.workload.Bid;
import io.millrace.bench.workload.Input;
import io.millrace.bench.workload.Query;
import io.millrace.bench.workload.Recompute;
import io.millrace.bench.workload.Rows;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Flink SQL versions of the queries, with checkpoints on, give what a batch recomputation gives, and stamp each
 * result with the time the latency probe expects (runs only with -Pflink).
 */
class FlinkSqlQueriesSmokeTest {
    private static final ConcurrentLinkedQueue<Stamped> RESULTS = new ConcurrentLinkedQueue<>();

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Query.class)
    void streamingResultsEqualABatchRecomputation(Query q) throws Exception {
        runAndCompare(q, "heap");
    }

    /** The queries with keyed state, on Flink's EmbeddedRocksDBStateBackend. */
    @ParameterizedTest
    @EnumSource(value = Query.class, names = {"Q4", "Q5", "Q7", "COUNTS", "IJOIN", "TJOIN", "SESSION", "TTL"})
    void onRocksDb_streamingResultsEqualABatchRecomputation(Query q) throws Exception {
        runAndCompare(q, "rocksdb");
    }

    private void runAndCompare(Query q, String backend) throws Exception {
        long events = q == Query.TTL ? 250_000 : q == Query.SESSION ? 40_000 : 20_000;
        long eventRate = q == Query.TTL ? 100_000 : q == Query.SESSION ? 400 : q == Query.SLIDING ? 10_000 : 1_000;
        BenchOptions o = BenchOptions.parse("--query", q.id(), "--parallelism", "2", "--checkpoint-interval-ms", "200", "--backend", backend,
                "--event-rate", Long.toString(eventRate));
        Input input = new Input(q, events, o.parallelism, o.seed, o.eventRate);
        RESULTS.clear();
        FlinkSqlEngine.environment(o, input, 0, dir, new Collect()).execute("sql-smoke-" + q.id());

        if (q == Query.Q4) {
            assertThat(finalCategoryAverages()).isNotEmpty().isEqualTo(expectedCategoryAverages(Recompute.expected(q, input)));
            return;
        }
        List<Object> rows = new ArrayList<>();
        for (Stamped s : RESULTS) {
            rows.add(workloadRow(q, s.row));
            assertThat(s.timestamp).as("timestamp of %s", s.row).isEqualTo(expectedStamp(q, s.row));
        }
        assertThat(Recompute.sorted(rows)).isNotEmpty().isEqualTo(Recompute.expected(q, input));
    }

    /**
     * Q4's changelog applied: per category the last inserted or updated (average, auctions), averages rounded to
     * 6 decimals (the order of a double sum differs between engines).
     */
    private static Map<Long, String> finalCategoryAverages() {
        Map<Long, String> table = new TreeMap<>();
        for (Stamped s : RESULTS) {
            Row r = s.row;
            long category = r.<Long>getFieldAs("category");
            switch (r.getKind()) {
                case INSERT, UPDATE_AFTER -> table.put(category, average(r.<Double>getFieldAs("average"), r.<Long>getFieldAs("auctions")));
                case DELETE -> table.remove(category);
                case UPDATE_BEFORE -> { }
            }
        }
        return table;
    }

    /** The same from Recompute's closed auctions ({@code ClosedAuction[category=c, price=p]}). */
    private static Map<Long, String> expectedCategoryAverages(List<String> closed) {
        Map<Long, long[]> sums = new TreeMap<>();
        Pattern row = Pattern.compile("ClosedAuction\\[category=(\\d+), price=(\\d+)]");
        for (String c : closed) {
            Matcher m = row.matcher(c);
            assertThat(m.matches()).as(c).isTrue();
            long[] sum = sums.computeIfAbsent(Long.parseLong(m.group(1)), k -> new long[2]);
            sum[0] += Long.parseLong(m.group(2));
            sum[1]++;
        }
        Map<Long, String> table = new TreeMap<>();
        sums.forEach((category, sum) -> table.put(category, average((double) sum[0] / sum[1], sum[1])));
        return table;
    }

    private static String average(double average, long auctions) {
        return String.format(Locale.ROOT, "%.6f over %d", average, auctions);
    }

    /** The workload's result row of an SQL result row. */
    static Object workloadRow(Query q, Row r) {
        return switch (q) {
            case Q0, Q1, Q7 -> new Bid(r.<Long>getFieldAs("auction"), r.<Long>getFieldAs("bidder"), r.<Long>getFieldAs("price"),
                    r.getFieldAs("channel"), r.getFieldAs("url"), r.<Long>getFieldAs("dateTime"));
            case Q2 -> new Rows.AuctionPrice(r.<Long>getFieldAs("auction"), r.<Long>getFieldAs("price"));
            case Q3 -> new Rows.SellerAuction(r.getFieldAs("name"), r.getFieldAs("city"), r.getFieldAs("state"), r.<Long>getFieldAs("id"));
            case Q5 -> new Rows.AuctionCount(r.<Long>getFieldAs("auction"), r.<Long>getFieldAs("num"), windowEnd(r));
            case Q8 -> new Rows.NewUser(r.<Long>getFieldAs("id"), r.getFieldAs("name"), r.<Long>getFieldAs("auction"), millis(r, "window_start"));
            case COUNTS -> new Rows.KeyReached(r.<Long>getFieldAs("auction"), r.<Long>getFieldAs("num"));
            case IJOIN -> new Rows.AuctionBid(r.<Long>getFieldAs("auction"), r.<Long>getFieldAs("bidder"), r.<Long>getFieldAs("price"),
                    r.<Long>getFieldAs("dateTime"));
            case TJOIN -> new Rows.BidTerms(r.<Long>getFieldAs("auction"), r.<Long>getFieldAs("bidder"), r.<Long>getFieldAs("price"),
                    r.<Long>getFieldAs("reserve"), r.<Long>getFieldAs("category"), r.<Long>getFieldAs("dateTime"));
            case TTL -> new Rows.KeyReached(r.<Long>getFieldAs("key"), r.<Long>getFieldAs("num"));
            case SLIDING -> new Rows.SensorAverage(r.<Long>getFieldAs("key"), windowEnd(r), r.<Double>getFieldAs("average"));
            case SESSION -> new Rows.RunCycle(r.<Long>getFieldAs("key"), millis(r, "window_start"), millis(r, "window_end"),
                    r.<Long>getFieldAs("events"));
            default -> throw new IllegalArgumentException(q.id());
        };
    }

    /** What the latency probe needs: the window's end - 1 ms for window results, else the input row's time. */
    private static Long expectedStamp(Query q, Row r) {
        Object time = r.getField(r.getArity() - 1);
        return time instanceof Instant i ? i.toEpochMilli() : null;
    }

    private static long windowEnd(Row r) {
        return r.<Instant>getFieldAs("window_time").toEpochMilli() + 1;
    }

    private static long millis(Row r, String field) {
        return r.<LocalDateTime>getFieldAs(field).toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    private record Stamped(Row row, Long timestamp) {}

    /** Collects into {@link #RESULTS} (the local cluster runs in this JVM). */
    static final class Collect implements Sink<Row> {
        private static final long serialVersionUID = 1L;

        @Override
        public SinkWriter<Row> createWriter(WriterInitContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(Row value, Context ctx) {
                    RESULTS.add(new Stamped(value, ctx.timestamp()));
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }
}
