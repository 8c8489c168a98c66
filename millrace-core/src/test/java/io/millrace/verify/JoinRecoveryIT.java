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
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import io.millrace.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An interval join and a window join in one job, into the exactly-once file sink, under failures, restores from
 * checkpoints and rescaling: the job fails three times, each time after a checkpoint completed (a failure is armed
 * from the test once it sees one, and thrown by the next left row), restarts from its checkpoints twice and then
 * gives up; started again at another parallelism on the same checkpoint directory, it resumes from the latest
 * checkpoint (its key groups spread over the new subtasks) and runs to the end. What it committed over both runs
 * must equal the batch join of the input, each pair exactly once.
 */
public class JoinRecoveryIT {
    private static final long SEED = 0x301_1000L;
    private static final String[] KINDS = {"tumbling", "sliding", "session"};
    /** Failures still to throw: the next left row throws while this is above 0, and counts it down. */
    static final AtomicInteger ARMED = new AtomicInteger();

    /** Throws at the next row while a failure is {@link #ARMED}. */
    static final class FailWhenArmed implements MapFunction<Event, Event> {
        @Override
        public Event map(Event value) {
            int armed = ARMED.get();
            if (armed > 0 && ARMED.compareAndSet(armed, armed - 1)) {
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
                .ratePerSecond(1_000)
                .build();
        return p.fromSource(source, WatermarkStrategy.boundedOutOfOrderness(Duration.ofMillis(input.bound)), name).uid(name).parallelism(2);
    }

    private JobHandle start(Path out, int parallelism, RestartStrategy restarts, DisorderedInput lefts, DisorderedInput rights,
            WindowShape shape, long lower, long upper) {
        PipelineConfig config = onBackend(new PipelineConfig().parallelism(parallelism).restartStrategy(restarts));
        config.checkpoints().directory(out.resolve("checkpoints")).interval(Duration.ofMillis(30));
        Pipeline p = Pipeline.create(config);
        DataStream<Event> left = source(p, lefts, "left").map(new FailWhenArmed()).uid("fail-when-armed");
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
        return p.executeAsync("joins under failures");
    }

    @Test
    void whenTheJobFailsRestartsFromCheckpointsAndResumesAtAnotherParallelism_thenItCommitsEveryPairOfTheBatchJoinOnce() throws Exception {
        for (int round = 0; round < 3; round++) {
            long seed = SEED + round;
            Random random = new Random(seed);
            WindowShape shape = WindowShape.random(random, KINDS[round]);
            int keys = 5 + random.nextInt(20);
            long bound = 1 + random.nextInt(60);
            DisorderedInput lefts = DisorderedInput.generate(random, 4_000 + random.nextInt(1_000), keys, bound, 0);
            DisorderedInput rights = DisorderedInput.generate(random, 4_000 + random.nextInt(1_000), keys, bound, 0);
            long[] bounds = JoinEquivalenceIT.randomBounds(random);
            int first = 1 + random.nextInt(4);
            int second = 1 + (first + random.nextInt(3)) % 4;
            String where = "seed " + seed + ": " + shape + " between [" + bounds[0] + ", " + bounds[1] + "] parallelism " + first + " then " + second;

            List<String> expected = new ArrayList<>();
            JoinEquivalenceIT.intervalJoin(lefts.events, rights.events, bounds[0], bounds[1]).forEach(s -> expected.add("I " + s));
            JoinEquivalenceIT.windowJoin(lefts.events, rights.events, shape).forEach(s -> expected.add("W " + s));

            Path out = dir.resolve("round-" + round);
            ARMED.set(0);
            JobHandle failing = start(out, first, RestartStrategy.fixedDelay(2, Duration.ZERO), lefts, rights, shape, bounds[0], bounds[1]);
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
            List<String> committed = ExactlyOnceRecoveryIT.readLines(out.resolve("pairs"));
            assertThat(committed.size()).as(where + ": pairs committed by the first run's checkpoints").isLessThan(expected.size());

            JobResult resumed = start(out, second, RestartStrategy.none(), lefts, rights, shape, bounds[0], bounds[1]).await();
            assertThat(resumed.cancelled()).as(where).isFalse();
            JoinEquivalenceIT.assertSamePairs(ExactlyOnceRecoveryIT.readLines(out.resolve("pairs")), expected, where);
        }
    }
}
