package io.millrace.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.DataStream;
import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.RestartStrategy;
import io.millrace.api.functions.MapFunction;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An interval join and a window join in one job, into the exactly-once file sink, under failures, restores from
 * checkpoints and rescaling: the job fails three times at injected records, restarts from its checkpoints twice and
 * then gives up; started again at another parallelism on the same checkpoint directory, it resumes from the latest
 * checkpoint (its key groups spread over the new subtasks) and runs to the end. What it committed over both runs
 * must equal the batch join of the input, each pair exactly once.
 */
public class JoinRecoveryIT {
    private static final long SEED = 0x301_1000L;
    private static final String[] KINDS = {"tumbling", "sliding", "session"};
    /** Ids of left rows that still have to throw once. */
    static final Set<Integer> FAIL_AT = ConcurrentHashMap.newKeySet();

    /** Throws once at each id of {@link #FAIL_AT}. */
    static final class FailAt implements MapFunction<Event, Event> {
        @Override
        public Event map(Event value) {
            if (FAIL_AT.remove(value.id())) {
                throw new IllegalStateException("injected failure at left row " + value.id());
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

    private static DataStream<Event> source(Pipeline p, DisorderedInput input, String name) {
        List<Event> all = input.events;
        GeneratorSource<Event> source = GeneratorSource.builder(i -> all.get((int) i))
                .count(all.size())
                .timestamps(i -> all.get((int) i).ts())
                .ratePerSecond(2_500)
                .build();
        return p.fromSource(source, WatermarkStrategy.boundedOutOfOrderness(Duration.ofMillis(input.bound)), name).uid(name).parallelism(2);
    }

    private JobResult run(Path out, int parallelism, RestartStrategy restarts, DisorderedInput lefts, DisorderedInput rights,
            WindowShape shape, long lower, long upper) {
        PipelineConfig config = onBackend(new PipelineConfig().parallelism(parallelism).restartStrategy(restarts));
        config.checkpoints().directory(out.resolve("checkpoints")).interval(Duration.ofMillis(30));
        Pipeline p = Pipeline.create(config);
        DataStream<Event> left = source(p, lefts, "left").map(new FailAt()).uid("fail-at");
        DataStream<Event> right = source(p, rights, "right");
        DataStream<String> intervals = left.keyBy(Event::key)
                .intervalJoin(right.keyBy(Event::key))
                .between(Duration.ofMillis(lower), Duration.ofMillis(upper))
                .process(new JoinEquivalenceIT.IntervalPairs()).uid("interval-join")
                .map(s -> "I " + s).uid("label-intervals");
        DataStream<String> windows = left.join(right)
                .where(Event::key).equalTo(Event::key)
                .window(shape.assigner())
                .apply((l, r) -> "W " + l.id() + "+" + r.id()).uid("window-join")
                .process(new JoinEquivalenceIT.WithTimestamp()).uid("label-windows");
        intervals.union(windows).sinkTo(TransactionalFileSink.of(out.resolve("pairs"), ExactlyOnceRecoveryIT.LINES)).uid("sink");
        return p.execute("joins under failures");
    }

    @Test
    void whenTheJobFailsRestartsFromCheckpointsAndResumesAtAnotherParallelism_thenItCommitsEveryPairOfTheBatchJoinOnce() throws Exception {
        for (int round = 0; round < 3; round++) {
            long seed = SEED + round;
            Random random = new Random(seed);
            WindowShape shape = WindowShape.random(random, KINDS[round]);
            int keys = 5 + random.nextInt(20);
            long bound = 1 + random.nextInt(60);
            DisorderedInput lefts = DisorderedInput.generate(random, 2_500 + random.nextInt(1_000), keys, bound, 0);
            DisorderedInput rights = DisorderedInput.generate(random, 2_500 + random.nextInt(1_000), keys, bound, 0);
            long[] bounds = JoinEquivalenceIT.randomBounds(random);
            int first = 1 + random.nextInt(4);
            int second = 1 + (first + random.nextInt(3)) % 4;
            String where = "seed " + seed + ": " + shape + " between [" + bounds[0] + ", " + bounds[1] + "] parallelism " + first + " then " + second;

            List<String> expected = new ArrayList<>();
            JoinEquivalenceIT.intervalJoin(lefts.events, rights.events, bounds[0], bounds[1]).forEach(s -> expected.add("I " + s));
            JoinEquivalenceIT.windowJoin(lefts.events, rights.events, shape).forEach(s -> expected.add("W " + s));

            Path out = dir.resolve("round-" + round);
            int n = lefts.events.size();
            FAIL_AT.clear();
            FAIL_AT.addAll(Set.of(n / 10, n / 4, n * 2 / 5));   // all read by the left source's first subtask, one after the other
            assertThatThrownBy(() -> run(out, first, RestartStrategy.fixedDelay(2, Duration.ZERO), lefts, rights, shape, bounds[0], bounds[1]))
                    .as(where + ": the third failure ends the first run").isInstanceOf(Exception.class);
            assertThat(FAIL_AT).as(where + ": every injected failure happened").isEmpty();
            List<String> committed = ExactlyOnceRecoveryIT.readLines(out.resolve("pairs"));
            assertThat(committed.size()).as(where + ": pairs committed by the first run's checkpoints").isBetween(1, expected.size() - 1);

            JobResult resumed = run(out, second, RestartStrategy.none(), lefts, rights, shape, bounds[0], bounds[1]);
            assertThat(resumed.cancelled()).as(where).isFalse();
            JoinEquivalenceIT.assertSamePairs(ExactlyOnceRecoveryIT.readLines(out.resolve("pairs")), expected, where);
        }
    }
}
