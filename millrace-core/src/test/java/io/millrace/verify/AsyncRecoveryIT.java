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
import io.millrace.api.async.AsyncDataStream;
import io.millrace.api.async.AsyncFunction;
import io.millrace.api.async.AsyncOptions;
import io.millrace.api.async.ResultFuture;
import io.millrace.api.functions.RichFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.metrics.JobMetrics;
import io.millrace.api.window.Windows;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import io.millrace.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Async I/O under failures, restores and rescaling, into the exactly-once file sink: what the runs commit must equal
 * the batch result, every record's answer once and the event-time windows behind the operator exact. A second test
 * shows that records still waiting for their answer at a checkpoint come back from the operator's state, not from
 * the source: their answers are held back until the job is cancelled, and the sources had read past them.
 */
public class AsyncRecoveryIT {
    private static final long SEED = 0xA5_4EC0L;
    /** Failures still to throw: the next request throws while this is above 0, and counts it down. */
    static final AtomicInteger ARMED = new AtomicInteger();
    /** While set, the echo service never answers the events {@link #held} selects. */
    static volatile boolean holding;
    /** Ids the echo service was asked for, over all runs. */
    static final Set<Integer> REQUESTED = ConcurrentHashMap.newKeySet();
    /** Ids of the real events the sources read, over all runs. */
    static final Set<Integer> READ = ConcurrentHashMap.newKeySet();

    /** Whether {@code e} is one of the first {@code real} events; notes those read. */
    static boolean isReal(Event e, int real) {
        if (e.id() >= real) {
            return false;
        }
        READ.add(e.id());
        return true;
    }

    static boolean held(int id) {
        return id % 10 == 3;
    }

    /** Answers each event with itself after a seeded random delay; throws once when armed; holds some back when told to. */
    static final class EchoService implements AsyncFunction<Event, Event>, RichFunction {
        private final long seed;
        private transient ScheduledExecutorService threads;
        private transient Random random;

        EchoService(long seed) {
            this.seed = seed;
        }

        @Override
        public void open(RuntimeContext context) {
            random = new Random(seed + context.subtaskIndex());
            threads = Executors.newScheduledThreadPool(2, r -> {
                Thread t = new Thread(r, "echo-service");
                t.setDaemon(true);
                return t;
            });
        }

        @Override
        public void asyncInvoke(Event input, ResultFuture<Event> result) {
            int armed = ARMED.get();
            if (armed > 0 && ARMED.compareAndSet(armed, armed - 1)) {
                throw new IllegalStateException("injected failure at event " + input.id());
            }
            REQUESTED.add(input.id());
            if (holding && held(input.id())) {
                return;
            }
            threads.schedule(() -> result.completeWith(input), random.nextInt(2_000), TimeUnit.MICROSECONDS);
        }

        @Override
        public void close() {
            threads.shutdownNow();
        }
    }

    @TempDir
    Path dir;

    /** The state backend of this test's pipelines: adds its settings to {@code config} (the heap backend here). */
    protected PipelineConfig onBackend(PipelineConfig config) {
        return config;
    }

    /** The job: events read in {@code seconds}, the first {@code real} of them to the echo service and on to the sink. */
    private JobHandle start(Path out, int parallelism, RestartStrategy restarts, List<Event> events, int real, long bound, double seconds,
            AsyncOptions options, long seed) {
        PipelineConfig config = onBackend(new PipelineConfig().parallelism(parallelism).restartStrategy(restarts));
        config.checkpoints().directory(out.resolve("checkpoints")).interval(Duration.ofMillis(30));
        Pipeline p = Pipeline.create(config);
        io.millrace.connector.generator.GeneratorSource<Event> source = io.millrace.connector.generator.GeneratorSource
                .builder(i -> events.get((int) i)).count(events.size()).timestamps(i -> events.get((int) i).ts())
                .ratePerSecond(events.size() / seconds).build();
        DataStream<Event> readings = p.fromSource(source,
                io.millrace.api.time.WatermarkStrategy.<Event>boundedOutOfOrderness(Duration.ofMillis(bound)), "events").uid("events").parallelism(2);
        DataStream<Event> answered = AsyncDataStream.apply(readings.filter(e -> isReal(e, real)).uid("real").keyBy(Event::key),
                new EchoService(seed), options).uid("echo");
        DataStream<String> labels = answered.map(e -> "E " + e.id()).uid("label");
        DataStream<String> windows = answered.keyBy(Event::key).window(Windows.tumbling(Duration.ofMillis(100))).reduce(Event::sum).uid("windows")
                .map(e -> "W " + e.key() + " " + e.ts() / 100 + " " + e.value()).uid("label-windows");
        labels.union(windows).sinkTo(TransactionalFileSink.of(out.resolve("out"), ExactlyOnceRecoveryIT.LINES)).uid("sink");
        return p.executeAsync("async under failures");
    }

    /** Every event's line, and per key and 100 ms window the sum of the values. */
    static List<String> expected(List<Event> events) {
        List<String> lines = new ArrayList<>();
        Map<String, Long> sums = new TreeMap<>();
        for (Event e : events) {
            lines.add("E " + e.id());
            sums.merge(e.key() + " " + e.ts() / 100, e.value(), Long::sum);
        }
        sums.forEach((window, sum) -> lines.add("W " + window + " " + sum));
        return lines;
    }

    @Test
    void whenTheFunctionThrowsAfterCheckpoints_thenRestartsAndAResumeAtAnotherParallelismCommitTheBatchResultOnce() throws Exception {
        for (int round = 0; round < 2; round++) {
            long seed = SEED + round;
            Random random = new Random(seed);
            long bound = 5 + random.nextInt(40);
            DisorderedInput in = DisorderedInput.generate(random, 3_000 + random.nextInt(1_000), 3 + random.nextInt(10), bound, 0);
            AsyncOptions options = (round == 0 ? AsyncOptions.ordered() : AsyncOptions.unordered()).capacity(4 + random.nextInt(30));
            int first = 1 + random.nextInt(3);
            int second = 1 + (first + random.nextInt(2)) % 3;
            String where = "seed " + seed + ", " + options + ": parallelism " + first + " then " + second;
            Path out = dir.resolve("round-" + round);
            holding = false;
            ARMED.set(0);

            JobHandle failing = start(out, first, RestartStrategy.fixedDelay(2, Duration.ZERO), in.events, in.events.size(), bound, 5, options, seed);
            long seen = -1;
            for (int failure = 1; failure <= 3; failure++) {
                int restartsBefore = failure - 1;
                long after = seen;
                Await.until(where + ": a checkpoint before failure " + failure, Duration.ofSeconds(60), () -> {
                    JobMetrics m = failing.metrics();
                    return m.restarts() == restartsBefore && m.lastCompletedCheckpoint() > after;
                });
                seen = failing.metrics().lastCompletedCheckpoint();
                // a random point: the failure is armed after a random share of the next checkpoint interval
                long armAt = System.nanoTime() + random.nextInt(30) * 1_000_000L;
                Await.until(where + ": time to arm failure " + failure, () -> System.nanoTime() - armAt >= 0);
                ARMED.set(1);
                Await.until(where + ": failure " + failure, Duration.ofSeconds(60), () -> ARMED.get() == 0);
            }
            assertThatThrownBy(failing::await).as(where + ": the third failure ends the first run").isInstanceOf(JobExecutionException.class)
                    .hasStackTraceContaining("injected failure at event");
            List<String> committed = ExactlyOnceRecoveryIT.readLines(out.resolve("out"));
            assertThat(committed.stream().filter(s -> s.startsWith("E ")).count()).as(where + ": committed by the first run")
                    .isLessThan(in.events.size());

            JobResult resumed = start(out, second, RestartStrategy.none(), in.events, in.events.size(), bound, 5, options, seed).await();
            assertThat(resumed.cancelled()).as(where).isFalse();
            assertThat(ExactlyOnceRecoveryIT.readLines(out.resolve("out"))).as(where).containsExactlyInAnyOrderElementsOf(expected(in.events));
        }
    }

    @Test
    void whenRecordsAwaitTheirAnswersAtACheckpoint_thenARestartAtAnotherParallelismRequestsThemAgainFromTheOperatorsState() throws Exception {
        Random random = new Random(SEED + 7);
        DisorderedInput in = DisorderedInput.generate(random, 3_000, 5, 20, 0);
        int real = 1_000;
        List<Event> events = in.events.subList(0, real);
        Path out = dir.resolve("held");
        holding = true;
        ARMED.set(0);
        REQUESTED.clear();
        AsyncOptions options = AsyncOptions.unordered().capacity(real);
        // the real events are read within the first second; the source goes on for two more seconds, with checkpoints
        JobHandle first = start(out, 2, RestartStrategy.none(), in.events, real, 20, 3, options, SEED);
        Await.until("every real event requested", Duration.ofSeconds(60), () -> REQUESTED.size() == real);
        long before = first.metrics().lastCompletedCheckpoint();
        Await.until("checkpoints taken after every real event was requested", Duration.ofSeconds(60),
                () -> first.metrics().lastCompletedCheckpoint() > before + 3);
        assertThat(first.isDone()).as("still reading the padding").isFalse();
        first.cancel();
        assertThat(first.await(Duration.ofSeconds(30))).as("cancelled").isNotNull();
        List<String> committedFirst = ExactlyOnceRecoveryIT.readLines(out.resolve("out"));
        assertThat(committedFirst).as("no held event was answered").noneMatch(s -> s.startsWith("E ") && held(Integer.parseInt(s.substring(2))));
        assertThat(committedFirst).as("the others were").anyMatch(s -> s.startsWith("E "));

        holding = false;
        REQUESTED.clear();
        READ.clear();
        JobResult resumed = start(out, 3, RestartStrategy.none(), in.events, real, 20, 3, options, SEED).await();

        assertThat(resumed.cancelled()).isFalse();
        assertThat(READ).as("the second run's sources start past every real event").isEmpty();
        assertThat(REQUESTED).as("so the held events come back from the async operator's state")
                .containsAll(events.stream().map(Event::id).filter(AsyncRecoveryIT::held).toList());
        assertThat(REQUESTED).as("with the others whose answers had not left it (held back behind a watermark), none committed before")
                .doesNotContainAnyElementsOf(committedFirst.stream().filter(s -> s.startsWith("E ")).map(s -> Integer.parseInt(s.substring(2))).toList());
        assertThat(ExactlyOnceRecoveryIT.readLines(out.resolve("out"))).containsExactlyInAnyOrderElementsOf(expected(events));
    }
}
