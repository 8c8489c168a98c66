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
import java.util.concurrent.ConcurrentLinkedQueue;
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
    @EnumSource(value = Query.class, names = {"Q0", "Q1", "Q2", "Q3", "Q5", "Q7", "Q8", "COUNTS", "SLIDING", "SESSION", "TTL"})
    void streamingResultsEqualABatchRecomputation(Query q) throws Exception {
        runAndCompare(q, "heap");
    }

    /** The queries with keyed state, on Flink's EmbeddedRocksDBStateBackend. */
    @ParameterizedTest
    @EnumSource(value = Query.class, names = {"Q3", "Q5", "Q7", "Q8", "COUNTS", "SLIDING", "SESSION", "TTL"})
    void onRocksDb_streamingResultsEqualABatchRecomputation(Query q) throws Exception {
        runAndCompare(q, "rocksdb");
    }

    private void runAndCompare(Query q, String backend) throws Exception {
        BenchOptions o = BenchOptions.parse("--query", q.id(), "--parallelism", "2", "--checkpoint-interval-ms", "200", "--backend", backend);
        long events = q == Query.TTL ? 250_000 : q == Query.SESSION ? 40_000 : 20_000;
        long eventRate = q == Query.TTL ? 100_000 : q == Query.SESSION ? 400 : q == Query.SLIDING ? 10_000 : 1_000;
        Input input = new Input(q, events, o.parallelism, o.seed, eventRate);
        RESULTS.clear();
        FlinkSqlEngine.environment(o, input, 0, dir, new Collect()).execute("sql-smoke-" + q.id());

        List<Object> rows = new ArrayList<>();
        for (Stamped s : RESULTS) {
            rows.add(workloadRow(q, s.row));
            assertThat(s.timestamp).as("timestamp of %s", s.row).isEqualTo(expectedStamp(q, s.row));
        }
        assertThat(Recompute.sorted(rows)).isNotEmpty().isEqualTo(Recompute.expected(q, input));
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
