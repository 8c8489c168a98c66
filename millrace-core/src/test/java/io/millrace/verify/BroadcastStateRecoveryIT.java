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
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import io.millrace.testing.Await;
import io.millrace.verify.BroadcastJob.Event;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Broadcast state under failures: limits per machine type broadcast to the keyed alarms of {@link BroadcastJob}, rules
 * arriving all through the input, into the exactly-once file sink. Three failures after completed checkpoints, two
 * restarts from them (the broadcast state restored to every subtask, the rule source rewound), then a resume at
 * another parallelism from the same checkpoint directory. What both runs committed must be the batch model's alarms,
 * each once.
 */
public class BroadcastStateRecoveryIT {
    private static final long SEED = 0xB0AD_CA57L;
    /** Failures still to throw: the next reading throws while this is above 0, and counts it down. */
    static final AtomicInteger ARMED = new AtomicInteger();

    /** Throws at the next reading while a failure is {@link #ARMED}. */
    static final class FailWhenArmed implements MapFunction<Event, Event> {
        @Override
        public Event map(Event value) {
            int armed = ARMED.get();
            if (armed > 0 && ARMED.compareAndSet(armed, armed - 1)) {
                throw new IllegalStateException("injected failure at reading " + value.seq());
            }
            return value;
        }
    }

    @TempDir
    Path dir;

    /** The state backend of this test's pipelines (the heap here); millrace-rocksdb overrides it. */
    protected PipelineConfig onBackend(PipelineConfig config) {
        return config;
    }

    private JobHandle start(Path out, int parallelism, RestartStrategy restarts, List<Event> events) {
        PipelineConfig config = onBackend(new PipelineConfig().parallelism(parallelism).restartStrategy(restarts));
        config.checkpoints().directory(out.resolve("checkpoints")).interval(Duration.ofMillis(30));
        Pipeline p = Pipeline.create(config);
        DataStream<Event> in = BroadcastJob.source(p, events, events.size() / 6.0);
        BroadcastJob.alarms(in, new FailWhenArmed())
                .sinkTo(TransactionalFileSink.of(out.resolve("out"), ExactlyOnceRecoveryIT.LINES)).uid("sink");
        return p.executeAsync("broadcast state under failures");
    }

    @Test
    void whenTheJobFailsRestartsAndResumesAtAnotherParallelism_thenItCommitsTheModelsAlarmsOnce() throws Exception {
        for (int round = 0; round < 2; round++) {
            long seed = SEED + round;
            Random random = new Random(seed);
            List<Event> events = BroadcastJob.generate(random, 5_000 + random.nextInt(1_000), 10 + random.nextInt(30), 0.02, Integer.MAX_VALUE);
            List<String> expected = BroadcastJob.model(events);
            int first = 1 + random.nextInt(4);
            int second = 1 + (first + random.nextInt(3)) % 4;
            String where = "seed " + seed + ": parallelism " + first + " then " + second;

            Path out = dir.resolve("round-" + round);
            ARMED.set(0);
            JobHandle failing = start(out, first, RestartStrategy.fixedDelay(2, Duration.ZERO), events);
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
            assertThat(committed.size()).as(where + ": committed by the first run").isLessThan(expected.size());

            JobResult resumed = start(out, second, RestartStrategy.none(), events).await();
            assertThat(resumed.cancelled()).as(where).isFalse();
            assertThat(expected).as(where + ": the model raises alarms").hasSizeGreaterThan(100);
            assertThat(ExactlyOnceRecoveryIT.readLines(out.resolve("out"))).as(where).containsExactlyInAnyOrderElementsOf(expected);
        }
    }
}
