package io.millrace.runtime.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.JobResult;
import io.millrace.api.KeyedStream;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.RestartStrategy;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.MapFunction;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.Windows;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Local window aggregation across checkpoints and restarts: partials held by the pre-aggregating operator go out
 * before each barrier, so a job that fails several times and restarts from checkpoints taken in the middle of
 * slices commits the results of an uninterrupted run without local aggregation. A sliding count and a tumbling
 * "first record" reduce (associative, not commutative) over two source subtasks; each key is read by one of them.
 */
class LocalAggregationRecoveryIT {
    static final long EVENTS = 40_000;
    /** Records (indexes) that still have to throw once. */
    static final Set<Long> FAIL_AT = ConcurrentHashMap.newKeySet();

    /**
     * When set, a failure waits for the first committed results in this directory: until a checkpoint has committed
     * some, each failure moves on to the next index (of the same generator split), so a loaded machine still fails
     * the job after a commit, not before it.
     */
    static volatile Path failAfterCommitsIn;

    /** Throws once at each index of {@link #FAIL_AT}. */
    static final class FailAt implements MapFunction<Long, Long> {
        @Override
        public Long map(Long value) throws Exception {
            if (FAIL_AT.remove(value)) {
                Path committed = failAfterCommitsIn;
                if (committed != null && (!Files.isDirectory(committed) || ExactlyOnceRecoveryIT.readLines(committed).isEmpty())) {
                    FAIL_AT.add(value + 1);
                    return value;
                }
                throw new IllegalStateException("injected failure at " + value);
            }
            return value;
        }
    }

    /** Counts records; {@code merge} reuses its first argument (as a partial's merge into a stored slice may). */
    static final class Count extends ExactlyOnceRecoveryIT.Count {
        @Override
        public long[] merge(long[] a, long[] b) {
            a[0] += b[0];
            return a;
        }
    }

    /** "name key@windowStart=result". */
    static final class Label extends ProcessWindowFunction<Long, String, Long, TimeWindow> {
        private final String name;

        Label(String name) {
            this.name = name;
        }

        @Override
        public void process(Long key, Context<TimeWindow> ctx, Iterable<Long> results, Collector<String> out) {
            out.collect(name + " " + key + "@" + ctx.window().start() + "=" + results.iterator().next());
        }
    }

    /** Keys 0-4 in the first half of the indices, 10-14 in the second: a bounded generator reads each half in one subtask. */
    static long key(long i) {
        return (i < EVENTS / 2 ? 0 : 10) + i % 5;
    }

    private JobResult run(Path out, boolean local, Set<Long> failures) throws Exception {
        return run(out, local, failures, RestartStrategy.fixedDelay(10, Duration.ZERO));
    }

    private JobResult run(Path out, boolean local, Set<Long> failures, RestartStrategy restarts) throws Exception {
        FAIL_AT.clear();
        FAIL_AT.addAll(failures);
        PipelineConfig config = new PipelineConfig().parallelism(2).localWindowAggregation(local)
                .restartStrategy(restarts);
        config.checkpoints().directory(out.resolve("checkpoints")).interval(Duration.ofMillis(30));
        Pipeline p = Pipeline.create(config);
        KeyedStream<Long, Long> keyed = p.fromSource(
                        GeneratorSource.builder(i -> i).count(EVENTS).ratePerSecond(50_000).timestamps(i -> i * 10).build(),
                        WatermarkStrategy.<Long>boundedOutOfOrderness(Duration.ofSeconds(1)), "numbers").uid("numbers")
                .map(new FailAt()).uid("fail-at")
                .keyBy(LocalAggregationRecoveryIT::key);
        keyed.window(Windows.sliding(Duration.ofSeconds(3), Duration.ofSeconds(1))).aggregate(new Count(), new Label("count")).uid("counts")
                .union(keyed.window(Windows.tumbling(Duration.ofSeconds(2))).reduce((a, b) -> a, new Label("first")).uid("firsts"))
                .sinkTo(TransactionalFileSink.of(out.resolve("windows"), ExactlyOnceRecoveryIT.LINES)).uid("sink");
        return p.execute("local aggregation recovery");
    }

    @TempDir
    Path dir;

    @Test
    void whenTheJobRestartsFromCheckpointsTakenMidSlice_thenItCommitsTheResultsOfAnUninterruptedRunWithoutLocalAggregation() throws Exception {
        run(dir.resolve("reference"), false, Set.of());
        List<String> expected = ExactlyOnceRecoveryIT.readLines(dir.resolve("reference/windows")).stream().sorted().toList();
        assertThat(expected).as("reference results").hasSizeGreaterThan(100);

        JobResult result = run(dir.resolve("restarted"), true, Set.of(7_013L, 13_517L, 24_003L, 31_111L, 36_071L));

        assertThat(result.metrics().restarts()).isEqualTo(5);
        assertThat(ExactlyOnceRecoveryIT.readLines(dir.resolve("restarted/windows")).stream().sorted().toList()).isEqualTo(expected);
    }

    @Test
    void aJobThatFailsWithLocalAggregationOnOrOff_resumesFromItsCheckpointWithTheOtherSetting_andCommitsTheSameResults() throws Exception {
        run(dir.resolve("reference"), false, Set.of());
        List<String> expected = ExactlyOnceRecoveryIT.readLines(dir.resolve("reference/windows")).stream().sorted().toList();

        for (boolean firstOn : new boolean[] {true, false}) {
            Path out = dir.resolve(firstOn ? "on-then-off" : "off-then-on");
            failAfterCommitsIn = out.resolve("windows");
            try {
                assertThatThrownBy(() -> run(out, firstOn, Set.of(30_011L), RestartStrategy.none()))
                        .as("the first run fails at the injected failure").isInstanceOf(Exception.class);
            } finally {
                failAfterCommitsIn = null;
            }
            assertThat(ExactlyOnceRecoveryIT.readLines(out.resolve("windows"))).as("committed before the failure")
                    .isNotEmpty().hasSizeLessThan(expected.size());
            run(out, !firstOn, Set.of());
            assertThat(ExactlyOnceRecoveryIT.readLines(out.resolve("windows")).stream().sorted().toList())
                    .as("local aggregation %s, then %s", firstOn ? "on" : "off", firstOn ? "off" : "on").isEqualTo(expected);
        }
    }
}
