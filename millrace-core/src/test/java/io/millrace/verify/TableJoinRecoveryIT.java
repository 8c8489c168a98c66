package io.millrace.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.DataStream;
import io.millrace.api.JobExecutionException;
import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.RestartStrategy;
import io.millrace.api.functions.MapFunction;
import io.millrace.api.metrics.JobMetrics;
import io.millrace.api.row.Row;
import io.millrace.api.table.ChangelogJoin;
import io.millrace.api.table.ChangelogJoins;
import io.millrace.api.table.TemporalJoin;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import io.millrace.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A temporal join and a full outer changelog join in one job, into the exactly-once file sink, under failures,
 * restores from checkpoints and rescaling, as {@link JoinRecoveryIT} does for the interval and window joins: three
 * failures after completed checkpoints, two restarts, then a resume at another parallelism from the same checkpoint
 * directory. What both runs committed must equal the batch recomputation: each temporal pair once, and the
 * changelog join's output summing to the join of the final tables.
 */
public class TableJoinRecoveryIT {
    private static final long SEED = 0x7E5_1000L;
    /** Failures still to throw: the next reading throws while this is above 0, and counts it down. */
    static final AtomicInteger ARMED = new AtomicInteger();

    /** Throws at the next reading while a failure is {@link #ARMED}. */
    static final class FailWhenArmed implements MapFunction<Event, Event> {
        @Override
        public Event map(Event value) {
            int armed = ARMED.get();
            if (armed > 0 && ARMED.compareAndSet(armed, armed - 1)) {
                throw new IllegalStateException("injected failure at reading " + value.id());
            }
            return value;
        }
    }

    @TempDir
    Path dir;

    /**
     * The state backend of this test's pipelines: adds its settings to {@code config}. Nothing here (the heap
     * backend); millrace-rocksdb runs this test again on RocksDB by overriding it.
     */
    protected PipelineConfig onBackend(PipelineConfig config) {
        return config;
    }

    /** The inputs of one round. */
    record Input(DisorderedInput readings, DisorderedInput changes, Set<Integer> used, List<Row> lefts, List<Row> rights,
            Map<String, Row> leftTable, Map<String, Row> rightTable) {}

    /**
     * A source that takes about 6 s for {@code all}, whatever its size, so that all sources of the job end together:
     * once one has ended, no checkpoint completes any more.
     */
    static <T> DataStream<T> slowly(Pipeline p, List<T> all, long bound, java.util.function.ToLongFunction<T> ts, String name, int parallelism) {
        GeneratorSource<T> source = GeneratorSource.builder(i -> all.get((int) i)).count(all.size())
                .timestamps(i -> ts.applyAsLong(all.get((int) i))).ratePerSecond(all.size() / 6.0).build();
        return p.fromSource(source, WatermarkStrategy.<T>boundedOutOfOrderness(Duration.ofMillis(bound)), name).uid(name).parallelism(parallelism);
    }

    private JobHandle start(Path out, int parallelism, RestartStrategy restarts, Input in) {
        PipelineConfig config = onBackend(new PipelineConfig().parallelism(parallelism).restartStrategy(restarts));
        config.checkpoints().directory(out.resolve("checkpoints")).interval(Duration.ofMillis(30));
        Pipeline p = Pipeline.create(config);
        DataStream<Event> readings = slowly(p, in.readings().events, in.readings().bound, Event::ts, "readings", 2)
                .map(new FailWhenArmed()).uid("fail-when-armed");
        Set<Integer> used = in.used();
        DataStream<Row> changes = slowly(p, in.changes().events, in.changes().bound, Event::ts, "changes", 2)
                .filter(e -> used.contains(e.id())).uid("unique-changes").map(TableJoinEquivalenceIT::change).uid("to-changes");
        DataStream<String> temporal = TemporalJoin.of(readings.keyBy(Event::key), changes.keyBy(r -> (int) r.getLong("machine")))
                .leftOuter(TableJoinEquivalenceIT.DESCRIBE).uid("temporal-join")
                .process(new JoinEquivalenceIT.WithTimestamp()).uid("label-temporal").map(s -> "T " + s).uid("prefix-temporal");
        DataStream<String> changelog = ChangelogJoin.of(
                        slowly(p, in.lefts(), 0, r -> 0L, "left-changes", 1).keyBy(r -> r.getLong("k")),
                        slowly(p, in.rights(), 0, r -> 0L, "right-changes", 1).keyBy(r -> r.getLong("k")))
                .fullOuter(ChangelogJoins.JOIN).uid("changelog-join")
                .map(r -> "C " + r.kind().shortString() + ChangelogJoins.describe(r)).uid("label-changelog");
        temporal.union(changelog).sinkTo(TransactionalFileSink.of(out.resolve("out"), ExactlyOnceRecoveryIT.LINES)).uid("sink");
        return p.executeAsync("table joins under failures");
    }

    /** The changelog join's committed lines summed per joined row. */
    static Map<String, Integer> changelogSum(List<String> lines) {
        List<String> described = new ArrayList<>();
        List<Boolean> additions = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith("C ")) {
                described.add(line.substring(4));
                additions.add(line.charAt(2) == '+');
            }
        }
        return ChangelogJoins.sum(described, additions);
    }

    @Test
    void whenTheJobFailsRestartsAndResumesAtAnotherParallelism_thenItCommitsTheBatchResultsOnce() throws Exception {
        for (int round = 0; round < 2; round++) {
            long seed = SEED + round;
            Random random = new Random(seed);
            int keys = 5 + random.nextInt(20);
            long bound = 1 + random.nextInt(60);
            DisorderedInput readings = DisorderedInput.generate(random, 4_000 + random.nextInt(1_000), keys, bound, 0);
            DisorderedInput changes = DisorderedInput.generate(random, 1_000 + random.nextInt(1_000), keys, bound, 0);
            Map<String, Row> leftTable = ChangelogJoins.table();
            Map<String, Row> rightTable = ChangelogJoins.table();
            List<Row> lefts = ChangelogJoins.randomChangelog(random, "L", 2_000, 40, keys, leftTable);
            List<Row> rights = ChangelogJoins.randomChangelog(random, "R", 2_000, 40, keys, rightTable);
            Input in = new Input(readings, changes, TableJoinEquivalenceIT.uniquePerKeyAndTime(changes.events), lefts, rights, leftTable, rightTable);
            int first = 1 + random.nextInt(4);
            int second = 1 + (first + random.nextInt(3)) % 4;
            String where = "seed " + seed + ": parallelism " + first + " then " + second;

            List<String> expectedTemporal = new ArrayList<>();
            TableJoinEquivalenceIT.batchTemporalJoin(readings.events, changes.events, in.used(), true).forEach(s -> expectedTemporal.add("T " + s));
            Map<String, Integer> expectedChangelog = ChangelogJoins.batchJoin(leftTable, rightTable, true, true);

            Path out = dir.resolve("round-" + round);
            ARMED.set(0);
            JobHandle failing = start(out, first, RestartStrategy.fixedDelay(2, Duration.ZERO), in);
            long seen = -1;
            for (int failure = 1; failure <= 3; failure++) {
                int restartsBefore = failure - 1;
                long after = seen;
                Await.until(where + ": a checkpoint before failure " + failure, Duration.ofSeconds(60), () -> {
                    JobMetrics m = failing.metrics();
                    return m.restarts() == restartsBefore && m.lastCompletedCheckpoint() > after;
                });
                seen = failing.metrics().lastCompletedCheckpoint();
                ARMED.set(1);
                Await.until(where + ": failure " + failure, Duration.ofSeconds(60), () -> ARMED.get() == 0);
            }
            assertThatThrownBy(failing::await).as(where + ": the third failure ends the first run").isInstanceOf(JobExecutionException.class);
            List<String> committed = ExactlyOnceRecoveryIT.readLines(out.resolve("out"));
            assertThat(committed.stream().filter(s -> s.startsWith("T ")).count()).as(where + ": committed by the first run")
                    .isLessThan(expectedTemporal.size());

            JobResult resumed = start(out, second, RestartStrategy.none(), in).await();
            assertThat(resumed.cancelled()).as(where).isFalse();
            List<String> all = ExactlyOnceRecoveryIT.readLines(out.resolve("out"));
            JoinEquivalenceIT.assertSamePairs(all.stream().filter(s -> s.startsWith("T ")).toList(), expectedTemporal, where + ": temporal join");
            assertThat(changelogSum(all)).as(where + ": changelog join").isEqualTo(expectedChangelog);
        }
    }
}
