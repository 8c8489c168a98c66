package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.RestartStrategy;
import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.MapFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.Windows;
import io.millrace.connector.file.LineEncoder;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipeline that selects RocksDB with {@code stateBackend("rocksdb")}, fails once inside the job and
 * restarts from its checkpoint (state restored from RocksDB snapshots) without a process restart:
 * every result is committed exactly once, and every RocksDB working directory is gone at the end.
 */
class RocksDbRecoveryIT {
    static final long EVENTS = 40_000;
    static final int KEYS = 37;
    static final AtomicInteger FAILURES_LEFT = new AtomicInteger();

    @TempDir
    Path dir;

    /** Throws once, the first time it sees the given record. */
    static final class FailOnce implements MapFunction<Long, Long> {
        private final long at;

        FailOnce(long at) {
            this.at = at;
        }

        @Override
        public Long map(Long value) {
            if (value == at && FAILURES_LEFT.getAndDecrement() > 0) {
                throw new IllegalStateException("injected failure at " + value);
            }
            return value;
        }
    }

    /** Emits "key,n" for the n-th record of each key. */
    static final class RunningCount extends KeyedProcessFunction<Long, Long, String> {
        private transient ValueState<Long> count;

        @Override
        public void open(RuntimeContext context) {
            count = context.state().getState(new ValueStateDescriptor<>("count"));
        }

        @Override
        public void processElement(Long value, Context<Long> ctx, Collector<String> out) {
            Long c = count.value();
            long next = c == null ? 1 : c + 1;
            count.update(next);
            out.collect(ctx.currentKey() + "," + next);
        }
    }

    static final class Count implements AggregateFunction<Long, long[], Long> {
        @Override
        public long[] createAccumulator() {
            return new long[1];
        }

        @Override
        public long[] add(Long value, long[] acc) {
            acc[0]++;
            return acc;
        }

        @Override
        public Long getResult(long[] acc) {
            return acc[0];
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            return new long[] {a[0] + b[0]};
        }
    }

    static final LineEncoder<String> LINES = new LineEncoder<>() {
        @Override
        public String extension() {
            return "txt";
        }

        @Override
        public void encode(String value, StringBuilder line) {
            line.append(value);
        }
    };

    @Test
    void whenAUserFunctionThrowsOnce_onRocksDb_thenTheJobResumesFromItsCheckpoint_andCommitsEveryResultOnce() throws Exception {
        FAILURES_LEFT.set(1);
        Path state = dir.resolve("rocksdb-state");
        PipelineConfig config = new PipelineConfig().parallelism(2).restartStrategy(RestartStrategy.fixedDelay(3, Duration.ZERO))
                .stateBackend("rocksdb")
                .stateBackendOption(RocksDbConfig.DIRECTORY_OPTION, state.toString())
                .stateBackendOption(RocksDbConfig.MANAGED_MEMORY_OPTION, "32mb");
        config.checkpoints().directory(dir.resolve("checkpoints")).interval(Duration.ofMillis(50));
        Pipeline p = Pipeline.create(config);
        var numbers = p.fromSource(
                GeneratorSource.builder(i -> i).count(EVENTS).ratePerSecond(40_000).timestamps(i -> i * 10).build(),
                WatermarkStrategy.<Long>monotonous(), "numbers").uid("numbers");
        var checked = numbers.map(new FailOnce(EVENTS * 3 / 4)).name("fail-once").uid("fail-once");
        checked.keyBy(i -> i % KEYS).process(new RunningCount()).uid("running-count")
                .sinkTo(TransactionalFileSink.of(dir.resolve("counts"), LINES)).uid("counts-sink");
        checked.keyBy(i -> i % KEYS).window(Windows.tumbling(Duration.ofSeconds(10))).aggregate(new Count())
                .map(String::valueOf).uid("window-counts")
                .sinkTo(TransactionalFileSink.of(dir.resolve("windows"), LINES)).uid("windows-sink");

        JobResult result = p.execute("rocksdb-exactly-once");

        assertThat(result.metrics().restarts()).isEqualTo(1);
        assertThat(result.metrics().lastCompletedCheckpoint()).isGreaterThan(0);
        Map<Long, List<Long>> byKey = new HashMap<>();
        for (String line : readLines(dir.resolve("counts"))) {
            String[] kv = line.split(",");
            byKey.computeIfAbsent(Long.parseLong(kv[0]), k -> new ArrayList<>()).add(Long.parseLong(kv[1]));
        }
        assertThat(byKey).hasSize(KEYS);
        for (Map.Entry<Long, List<Long>> e : byKey.entrySet()) {
            List<Long> counts = e.getValue();
            counts.sort(Long::compare);
            long expected = (EVENTS - e.getKey() + KEYS - 1) / KEYS;
            assertThat(counts).as("counts of key %d", e.getKey()).hasSize((int) expected);
            for (int i = 0; i < counts.size(); i++) {
                assertThat(counts.get(i)).as("count %d of key %d", i, e.getKey()).isEqualTo(i + 1L);
            }
        }
        List<String> windows = readLines(dir.resolve("windows"));
        assertThat(windows).hasSize((int) (EVENTS / 1000 * KEYS));
        assertThat(windows.stream().mapToLong(Long::parseLong).sum()).isEqualTo(EVENTS);
        try (Stream<Path> left = Files.list(state)) {
            assertThat(left).as("RocksDB working directories after the job").isEmpty();
        }
    }

    static List<String> readLines(Path directory) throws IOException {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path f : files.filter(f -> !f.getFileName().toString().startsWith(".")).sorted().toList()) {
                lines.addAll(Files.readAllLines(f));
            }
        }
        return lines;
    }
}
