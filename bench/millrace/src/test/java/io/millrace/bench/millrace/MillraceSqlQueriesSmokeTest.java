package io.millrace.bench.millrace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.Pipeline;
import io.millrace.api.row.Row;
import io.millrace.api.sink.CollectSink;
import io.millrace.bench.workload.BenchOptions;
import io.millrace.bench.workload.Bid;
import io.millrace.bench.workload.Input;
import io.millrace.bench.workload.Query;
import io.millrace.bench.workload.Recompute;
import io.millrace.bench.workload.Rows;
import io.millrace.rocksdb.RocksDbConfig;
import io.millrace.rocksdb.RocksDbStateBackends;
import io.millrace.runtime.local.LocalExecutor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The SQL versions of the queries on Millrace, with two subtasks and checkpoints on, give what a batch recomputation
 * of the same input gives, and stamp each result with the time the latency probe expects: the input row's time, or
 * the window's end - 1 ms.
 */
class MillraceSqlQueriesSmokeTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Query.class, names = {"Q0", "Q1", "Q2", "SLIDING"})
    void streamingResultsEqualABatchRecomputation(Query q) throws Exception {
        runAndCompare(q, new LocalExecutor());
    }

    @ParameterizedTest
    @EnumSource(value = Query.class, names = {"SLIDING"})
    void onRocksDb_streamingResultsEqualABatchRecomputation(Query q) throws Exception {
        RocksDbConfig rocksDb = RocksDbConfig.defaults().withBaseDirectory(dir.resolve("rocksdb")).withManagedMemoryBytes(32L << 20);
        runAndCompare(q, new LocalExecutor(RocksDbStateBackends.factory(rocksDb)));
    }

    /** Every query is either run or refused naming what the SQL layer lacks. */
    @ParameterizedTest
    @EnumSource(Query.class)
    void everyQueryIsRunOrRefusedWithAReason(Query q) {
        if (MillraceSqlQueries.SUPPORTED.contains(q)) {
            assertThat(MillraceSqlQueries.missing(q)).isNull();
            assertThat(MillraceSqlQueries.sql(q)).startsWith("SELECT");
        } else {
            assertThat(MillraceSqlQueries.missing(q)).isNotBlank();
            assertThatThrownBy(() -> MillraceSqlQueries.sql(q)).hasMessageContaining("millrace-sql has no " + q.id());
        }
    }

    private void runAndCompare(Query q, LocalExecutor executor) throws Exception {
        long events = q == Query.SLIDING ? 5_000 : 20_000; // sliding: one reading per sensor, in 12 windows each
        long eventRate = q == Query.SLIDING ? 2_000 : 1_000;
        BenchOptions o = BenchOptions.parse("--query", q.id(), "--parallelism", "2", "--checkpoint-interval-ms", "200",
                "--event-rate", Long.toString(eventRate));
        Input input = new Input(q, events, o.parallelism, o.seed, o.eventRate);
        CollectSink<Row> sink = new CollectSink<>();
        Pipeline pipeline = MillraceSqlEngine.build(o, input, 0, dir, sink);
        executor.submit(pipeline.plan(), "sql-smoke-" + q.id()).await();

        List<Row> rows = sink.results();
        List<Long> stamps = sink.timestamps();
        List<Object> results = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            results.add(workloadRow(q, r));
            long expectedStamp = q == Query.SLIDING ? r.getTimestamp(r.size() - 1) - 1 : r.getTimestamp(r.size() - 1);
            assertThat(stamps.get(i)).as("timestamp of %s", r).isEqualTo(expectedStamp);
        }
        assertThat(Recompute.sorted(results)).isNotEmpty().isEqualTo(Recompute.expected(q, input));
    }

    /** The workload's result row of an SQL result row. */
    private static Object workloadRow(Query q, Row r) {
        return switch (q) {
            case Q0, Q1 -> new Bid(r.getLong("auction"), r.getLong("bidder"), r.getLong("price"), r.getString("channel"), r.getString("url"),
                    r.getLong("dateTime"));
            case Q2 -> new Rows.AuctionPrice(r.getLong("auction"), r.getLong("price"));
            case SLIDING -> new Rows.SensorAverage(r.getLong("key"), r.getTimestamp("window_end"), r.getDouble("average"));
            default -> throw new IllegalArgumentException(q.id());
        };
    }
}
