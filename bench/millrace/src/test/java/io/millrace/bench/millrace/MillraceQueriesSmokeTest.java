package io.millrace.bench.millrace;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.Pipeline;
import io.millrace.api.sink.CollectSink;
import io.millrace.bench.workload.BenchOptions;
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
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every benchmark query on Millrace, with two subtasks and checkpoints on, gives what a batch recomputation of the
 * same input gives, on the heap backend and, for the queries with keyed state, on RocksDB. Event time runs slowly
 * enough that the windowed queries close many windows.
 */
class MillraceQueriesSmokeTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Query.class)
    void streamingResultsEqualABatchRecomputation(Query q) throws Exception {
        runAndCompare(q, events(q), new LocalExecutor());
    }

    /** The queries with keyed state (joins, timers, windows, value state with and without TTL) on RocksDB. */
    @ParameterizedTest
    @EnumSource(value = Query.class, names = {"Q3", "Q4", "Q5", "Q7", "Q8", "COUNTS", "IJOIN", "TJOIN", "SLIDING", "SESSION", "TTL"})
    void onRocksDb_streamingResultsEqualABatchRecomputation(Query q) throws Exception {
        RocksDbConfig rocksDb = RocksDbConfig.defaults().withBaseDirectory(dir.resolve("rocksdb")).withManagedMemoryBytes(32L << 20);
        // windows fire slower on RocksDB (several reads and writes per record): fewer events, still many windows
        long events = switch (q) {
            case SLIDING -> 1_000;
            case Q4, Q5, Q7 -> 5_000;
            case SESSION -> 20_000;
            default -> events(q);
        };
        runAndCompare(q, events, new LocalExecutor(RocksDbStateBackends.factory(rocksDb)));
    }

    /**
     * q5 and q7 with a keyed window per auction and then a window reduce (`--second-step reduce`), or a keyed process
     * function (q7's plan before it became one window over all bids): the same results.
     */
    @ParameterizedTest
    @CsvSource({"Q5, reduce", "Q7, reduce", "Q7, process"})
    void otherPlansOfQ5AndQ7_sameResults(Query q, String secondStep) throws Exception {
        runAndCompare(q, events(q), new LocalExecutor(), "--second-step", secondStep);
    }

    private static long events(Query q) {
        return switch (q) {
            case TTL -> 250_000;
            case SESSION -> 40_000;
            case SLIDING -> 5_000; // one reading per sensor, in 12 windows each: 60,000 results
            default -> 20_000;
        };
    }

    private void runAndCompare(Query q, long events, LocalExecutor executor, String... more) throws Exception {
        long eventRate = switch (q) {
            case TTL -> 100_000;
            case SESSION -> 400;
            case SLIDING -> 2_000;
            default -> 1_000;
        };
        List<String> args = new ArrayList<>(List.of("--query", q.id(), "--parallelism", "2", "--checkpoint-interval-ms", "200",
                "--event-rate", Long.toString(eventRate)));
        args.addAll(List.of(more));
        BenchOptions o = BenchOptions.parse(args.toArray(String[]::new));
        Input input = new Input(q, events, o.parallelism, o.seed, o.eventRate);
        CollectSink<Object> sink = new CollectSink<>();
        Pipeline pipeline = MillraceEngine.build(o, input, 0, dir, sink);
        executor.submit(pipeline.plan(), "smoke-" + q.id()).await();

        List<String> expected = Recompute.expected(q, input);
        assertThat(expected).as("the input yields results").isNotEmpty();
        if (q == Query.Q4) {
            assertQ4(sink.results(), expected);
        } else {
            assertThat(Recompute.sorted(sink.results())).isEqualTo(expected);
        }
    }

    /** Q4's running averages depend on arrival order: check their number and each category's final average. */
    private static void assertQ4(List<Object> actual, List<String> expectedClosings) {
        assertThat(actual).hasSize(expectedClosings.size());
        Map<Long, Rows.CategoryAverage> last = new TreeMap<>();
        for (Object o : actual) {
            Rows.CategoryAverage a = (Rows.CategoryAverage) o;
            last.merge(a.category(), a, (x, y) -> x.auctions() >= y.auctions() ? x : y);
        }
        Map<Long, List<Long>> prices = new TreeMap<>();
        for (String s : expectedClosings) {
            String[] parts = s.replaceAll("[^0-9,]", "").split(",");
            prices.computeIfAbsent(Long.parseLong(parts[0]), k -> new ArrayList<>()).add(Long.parseLong(parts[1]));
        }
        assertThat(last.keySet()).isEqualTo(prices.keySet());
        prices.forEach((category, p) -> {
            assertThat(last.get(category).auctions()).isEqualTo(p.size());
            assertThat(last.get(category).average()).isCloseTo(p.stream().mapToLong(Long::longValue).average().orElseThrow(),
                    org.assertj.core.data.Offset.offset(1e-6));
        });
    }
}
