package io.millrace.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.state.StateTtlConfig;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.testing.Await;
import io.millrace.testing.FeedSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * State TTL and timers behave across stop-with-savepoint and restore as in one run: TTL is measured from
 * the original write on the pipeline clock, and event-time timers pending at the savepoint fire once, after
 * the restore.
 */
public class TtlAndTimersAcrossSavepointIT {
    @TempDir
    Path dir;

    /** For "key:value", emits "key previous=<live value or null>" and stores the value with a 10 s TTL after write. */
    static final class LastValueWithTtl extends KeyedProcessFunction<String, String, String> {
        private transient ValueState<String> last;

        @Override
        public void open(RuntimeContext context) {
            ValueStateDescriptor<String> d = new ValueStateDescriptor<>("last");
            d.enableTimeToLive(StateTtlConfig.afterWrite(Duration.ofSeconds(10)));
            last = context.state().getState(d);
        }

        @Override
        public void processElement(String value, Context<String> ctx, Collector<String> out) {
            out.collect(ctx.currentKey() + " previous=" + last.value());
            last.update(value.substring(value.indexOf(':') + 1));
        }
    }

    /** Registers an event-time timer 1000 ms after each record; emits "key@timer" when it fires. */
    static final class OneSecondLater extends KeyedProcessFunction<String, String, String> {
        @Override
        public void processElement(String value, Context<String> ctx, Collector<String> out) {
            ctx.timerService().registerEventTimeTimer(ctx.timestamp() + 1000);
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext<String> ctx, Collector<String> out) {
            out.collect(ctx.currentKey() + "@" + timestamp);
        }
    }

    /**
     * The state backend of this test's pipelines: adds its settings to {@code config}. Nothing here (the heap
     * backend); millrace-rocksdb runs this test again on RocksDB by overriding it.
     */
    protected PipelineConfig onBackend(PipelineConfig config) {
        return config;
    }

    private PipelineConfig config(ManualClock clock, Path restoreFrom) {
        PipelineConfig config = onBackend(new PipelineConfig().parallelism(2).clock(clock));
        config.checkpoints().directory(dir.resolve("job")).periodic(false);
        if (restoreFrom != null) {
            config.checkpoints().restoreFrom(restoreFrom);
        }
        return config;
    }

    private static String keyOf(String record) {
        return record.substring(0, record.indexOf(':'));
    }

    private JobHandle ttlJob(ManualClock clock, Path restoreFrom, FeedSource<String> feed, CollectSink<String> sink) {
        Pipeline p = Pipeline.create(config(clock, restoreFrom));
        p.fromSource(feed, WatermarkStrategy.noWatermarks(), "feed").uid("feed")
                .keyBy(TtlAndTimersAcrossSavepointIT::keyOf).process(new LastValueWithTtl()).uid("last")
                .sinkTo(sink);
        return p.executeAsync("ttl");
    }

    @Test
    void whenRestoredFromASavepoint_thenTtlCountsFromTheOriginalWrite() throws Exception {
        ManualClock clock = new ManualClock(1_000_000);
        FeedSource<String> feed = new FeedSource<>();
        CollectSink<String> sink = new CollectSink<>();
        JobHandle first = ttlJob(clock, null, feed, sink);
        feed.add("a:1");
        Await.until("a written", () -> sink.size() == 1);
        clock.advance(Duration.ofSeconds(5));
        feed.add("b:1");
        Await.until("two answers", () -> sink.size() == 2);
        Path savepoint = Path.of(first.stopWithSavepoint().get(20, TimeUnit.SECONDS));

        clock.advance(Duration.ofSeconds(7)); // a was written 12 s ago, b 7 s ago
        FeedSource<String> feed2 = new FeedSource<>();
        CollectSink<String> sink2 = new CollectSink<>();
        JobHandle second = ttlJob(clock, savepoint, feed2, sink2);
        feed2.add("a:2").add("b:2");
        Await.until("two answers after restore", () -> sink2.size() == 2);
        clock.advance(Duration.ofSeconds(9)); // b:2 was written 9 s ago: still live
        feed2.add("b:3").end();
        second.await();

        assertThat(sink.results()).containsExactlyInAnyOrder("a previous=null", "b previous=null");
        assertThat(sink2.results()).containsExactlyInAnyOrder("a previous=null", "b previous=1", "b previous=2");
    }

    private JobHandle timerJob(Path restoreFrom, FeedSource<String> feed, CollectSink<String> sink) {
        Pipeline p = Pipeline.create(config(new ManualClock(0), restoreFrom));
        p.fromSource(feed, WatermarkStrategy.<String>monotonous(), "feed").uid("feed")
                .keyBy(TtlAndTimersAcrossSavepointIT::keyOf).process(new OneSecondLater()).uid("timers")
                .sinkTo(sink);
        return p.executeAsync("timers");
    }

    @Test
    void whenEventTimeTimersArePendingAtTheSavepoint_thenTheyFireOnceAfterRestore() throws Exception {
        FeedSource<String> feed = new FeedSource<>();
        CollectSink<String> sink = new CollectSink<>();
        JobHandle first = timerJob(null, feed, sink);
        feed.add("a:", 0).add("b:", 500).add("c:", 800).add("x:", 1200);
        Await.until("a's timer fired", () -> sink.size() == 1);
        Path savepoint = Path.of(first.stopWithSavepoint().get(20, TimeUnit.SECONDS));

        FeedSource<String> feed2 = new FeedSource<>();
        CollectSink<String> sink2 = new CollectSink<>();
        JobHandle second = timerJob(savepoint, feed2, sink2);
        feed2.add("d:", 1600);
        Await.until("b's timer fired after restore", () -> sink2.size() == 1);
        assertThat(sink2.results()).containsExactly("b@1500");
        feed2.end();
        second.await();

        assertThat(sink.results()).containsExactly("a@1000");
        assertThat(sink2.results()).containsExactlyInAnyOrder("b@1500", "c@1800", "x@2200", "d@2600");
    }
}
