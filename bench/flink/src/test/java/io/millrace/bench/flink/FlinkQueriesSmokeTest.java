package io.millrace.bench.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.bench.workload.BenchOptions;
import io.millrace.bench.workload.Input;
import io.millrace.bench.workload.Query;
import io.millrace.bench.workload.Recompute;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** The Flink versions of the queries, on heap and RocksDB state, give what a batch recomputation gives (runs only with -Pflink). */
class FlinkQueriesSmokeTest {
    private static final ConcurrentLinkedQueue<Object> RESULTS = new ConcurrentLinkedQueue<>();

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Query.class, names = {"Q0", "Q2", "Q3", "Q5", "Q7", "Q8", "COUNTS", "IJOIN", "SESSION", "TTL"})
    void streamingResultsEqualABatchRecomputation(Query q) throws Exception {
        runAndCompare(q, "heap");
    }

    /** The queries with keyed state on Flink's EmbeddedRocksDBStateBackend. */
    @ParameterizedTest
    @EnumSource(value = Query.class, names = {"Q3", "Q5", "Q7", "Q8", "COUNTS", "IJOIN", "SESSION", "TTL"})
    void onRocksDb_streamingResultsEqualABatchRecomputation(Query q) throws Exception {
        runAndCompare(q, "rocksdb");
    }

    /**
     * q5 and q7 with a keyed window per auction and then a window reduce (`--second-step reduce`), or a keyed process
     * function (q7's plan before it became one window over all bids): the same results.
     */
    @ParameterizedTest
    @CsvSource({"Q5, reduce", "Q7, reduce", "Q7, process"})
    void otherPlansOfQ5AndQ7_sameResults(Query q, String secondStep) throws Exception {
        runAndCompare(q, "heap", "--second-step", secondStep);
    }

    private void runAndCompare(Query q, String backend, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("--query", q.id(), "--parallelism", "2", "--checkpoint-interval-ms", "200", "--backend", backend));
        args.addAll(List.of(more));
        long events = q == Query.TTL ? 250_000 : q == Query.SESSION ? 40_000 : 20_000;
        long eventRate = q == Query.TTL ? 100_000 : q == Query.SESSION ? 400 : 1_000;
        args.addAll(List.of("--event-rate", Long.toString(eventRate)));
        BenchOptions o = BenchOptions.parse(args.toArray(String[]::new));
        Input input = new Input(q, events, o.parallelism, o.seed, o.eventRate);
        RESULTS.clear();
        FlinkEngine.environment(o, input, 0, dir, new Collect()).execute("smoke-" + q.id());

        assertThat(Recompute.sorted(new ArrayList<>(RESULTS))).isNotEmpty().isEqualTo(Recompute.expected(q, input));
    }

    /** Collects into {@link #RESULTS} (the local cluster runs in this JVM). */
    static final class Collect implements Sink<Object> {
        private static final long serialVersionUID = 1L;

        @Override
        public SinkWriter<Object> createWriter(WriterInitContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(Object value, Context ctx) {
                    RESULTS.add(value);
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }

}
