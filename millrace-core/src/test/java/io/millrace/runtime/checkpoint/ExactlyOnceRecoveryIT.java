package io.millrace.runtime.checkpoint;

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
 * A task failure inside a running job (a user function that throws once) restarts the job from its
 * latest checkpoint in the same process; the committed output is exactly the uninterrupted result. On the
 * heap backend here; a subclass runs it on another backend through {@link #onBackend} and checks what that
 * backend leaves behind in {@link #afterJob}.
 */
public class ExactlyOnceRecoveryIT {
    static final long EVENTS = 60_000;
    static final int KEYS = 37;
    static final AtomicInteger FAILURES_LEFT = new AtomicInteger();

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
    public static final class RunningCount extends KeyedProcessFunction<Long, Long, String> {
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

    public static class Count implements AggregateFunction<Long, long[], Long> {
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

    public static final LineEncoder<String> LINES = new LineEncoder<>() {
        @Override
        public String extension() {
            return "txt";
        }

        @Override
        public void encode(String value, StringBuilder line) {
            line.append(value);
        }
    };

    @TempDir
    Path dir;

    /** The state backend settings of the job; the heap backend here. */
    protected PipelineConfig onBackend(PipelineConfig config) {
        return config;
    }

    /** Checks made after the job ended, besides its output; none here. */
    protected void afterJob() throws IOException {}

    @Test
    void whenAUserFunctionThrowsOnce_thenTheJobRestartsFromItsCheckpoint_andCommitsEveryResultOnce() throws Exception {
        FAILURES_LEFT.set(1);
        PipelineConfig config = onBackend(new PipelineConfig().parallelism(2).restartStrategy(RestartStrategy.fixedDelay(3, Duration.ZERO)));
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

        JobResult result = p.execute("exactly-once");

        assertThat(result.metrics().restarts()).isEqualTo(1);
        assertThat(result.metrics().lastCompletedCheckpoint()).isGreaterThan(0);
        assertRunningCountsExact(readLines(dir.resolve("counts")));
        // each 10 s window holds 1000 records (timestamps are 10 ms apart), key by key
        List<String> windows = readLines(dir.resolve("windows"));
        assertThat(windows).hasSize((int) (EVENTS / 1000 * KEYS));
        long total = windows.stream().mapToLong(Long::parseLong).sum();
        assertThat(total).isEqualTo(EVENTS);
        afterJob();
    }

    static void assertRunningCountsExact(List<String> lines) {
        assertRunningCountsExact(lines, EVENTS);
    }

    static void assertRunningCountsExact(List<String> lines, long events) {
        Map<Long, List<Long>> byKey = new HashMap<>();
        for (String line : lines) {
            String[] kv = line.split(",");
            byKey.computeIfAbsent(Long.parseLong(kv[0]), k -> new ArrayList<>()).add(Long.parseLong(kv[1]));
        }
        assertThat(byKey).hasSize(KEYS);
        for (Map.Entry<Long, List<Long>> e : byKey.entrySet()) {
            long expected = (events - e.getKey() + KEYS - 1) / KEYS;
            List<Long> counts = e.getValue();
            counts.sort(Long::compare);
            assertThat(counts).as("counts of key %d", e.getKey()).hasSize((int) expected);
            for (int i = 0; i < counts.size(); i++) {
                assertThat(counts.get(i)).as("count %d of key %d", i, e.getKey()).isEqualTo(i + 1L);
            }
        }
    }

    public static List<String> readLines(Path directory) throws IOException {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path f : files.filter(f -> !f.getFileName().toString().startsWith(".")).sorted().toList()) {
                lines.addAll(Files.readAllLines(f));
            }
        }
        return lines;
    }
}
