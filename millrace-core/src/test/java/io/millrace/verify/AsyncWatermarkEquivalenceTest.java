package io.millrace.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.async.AsyncDataStream;
import io.millrace.api.async.AsyncFunction;
import io.millrace.api.async.AsyncOptions;
import io.millrace.api.async.ResultFuture;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessFunction;
import io.millrace.api.functions.RichFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.window.Windows;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Unordered async I/O never moves a record across a watermark: event-time windows behind it give exactly the
 * results they give behind a synchronous map of the same input, although the records leave the async operator in
 * another order, and no record reaches the operator after it behind a watermark at or above its timestamp.
 */
class AsyncWatermarkEquivalenceTest {
    private static final long SEED = 0xA5_0E_0BL;

    /** Answers each event with itself after a seeded random delay, on threads of its own. */
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
            threads.schedule(() -> result.completeWith(input), random.nextInt(1_500), TimeUnit.MICROSECONDS);
        }

        @Override
        public void close() {
            threads.shutdownNow();
        }
    }

    /** Passes events on, and a marker for each one whose timestamp the watermark had already passed. */
    static final class LateMarker extends ProcessFunction<Event, Event> {
        @Override
        public void processElement(Event value, Context ctx, Collector<Event> out) {
            out.collect(ctx.timestamp() <= ctx.currentWatermark() ? new Event(-1, value.key(), value.ts(), value.value()) : value);
        }
    }

    private static List<Event> windowed(DisorderedInput in, boolean async, long seed, CollectSink<Event> late) {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(2));
        DataStream<Event> events = in.source(p, 2, 5);
        DataStream<Event> enriched = async
                ? AsyncDataStream.apply(events, new EchoService(seed), AsyncOptions.unordered().capacity(24).timeout(Duration.ofSeconds(30)))
                : events.map(e -> e);
        DataStream<Event> checked = enriched.process(new LateMarker());
        checked.filter(e -> e.id() < 0).sinkTo(late);
        CollectSink<Event> out = new CollectSink<>();
        checked.filter(e -> e.id() >= 0).keyBy(Event::key).window(Windows.tumbling(Duration.ofMillis(40))).reduce(Event::sum).sinkTo(out);
        p.execute(async ? "unordered async" : "synchronous map");
        return out.results();
    }

    @Test
    void unorderedWait_thenEventTimeWindowsBehindItEqualThoseBehindASynchronousMap() {
        for (int round = 0; round < 3; round++) {
            long seed = SEED + round;
            Random random = new Random(seed);
            DisorderedInput in = DisorderedInput.generate(random, 2_000 + random.nextInt(2_000), 3 + random.nextInt(8), 5 + random.nextInt(40), 0);
            CollectSink<Event> lateAsync = new CollectSink<>();
            CollectSink<Event> lateSync = new CollectSink<>();

            List<Event> viaAsync = windowed(in, true, seed, lateAsync);
            List<Event> viaMap = windowed(in, false, seed, lateSync);

            assertThat(lateSync.results()).as("seed " + seed + ": the input has no late record").isEmpty();
            assertThat(lateAsync.results()).as("seed " + seed + ": records behind a watermark at or above their timestamp").isEmpty();
            assertThat(viaAsync).as("seed " + seed).containsExactlyInAnyOrderElementsOf(viaMap);
            assertThat(viaMap).as("seed " + seed + ": windows fired").hasSizeGreaterThan(10);
        }
    }
}
