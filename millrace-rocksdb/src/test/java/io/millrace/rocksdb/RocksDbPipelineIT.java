package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.Windows;
import io.millrace.runtime.local.LocalExecutor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keyed pipelines through the local runtime with every keyed operator on RocksDB, at parallelism 2. */
class RocksDbPipelineIT {
    @TempDir
    Path base;

    record Ev(String key, long value) {
        static Ev reduceSum(Ev a, Ev b) {
            return new Ev(a.key, a.value + b.value);
        }
    }

    /** Counts records per key in value state and emits "key=count" once, when the input ends. */
    static final class CountAtEnd extends KeyedProcessFunction<Integer, Integer, String> {
        private transient ValueState<Integer> count;

        @Override
        public void open(RuntimeContext context) {
            count = context.state().getState(new ValueStateDescriptor<>("count"));
        }

        @Override
        public void processElement(Integer value, Context<Integer> ctx, Collector<String> out) {
            Integer c = count.value();
            count.update(c == null ? 1 : c + 1);
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext<Integer> ctx, Collector<String> out) {
            out.collect(ctx.currentKey() + "=" + count.value());
        }
    }

    private LocalExecutor executor() {
        return new LocalExecutor(RocksDbStateBackends.factory(TestBackends.CONFIG.withBaseDirectory(base)));
    }

    @Test
    void keyedCount_onRocksDb_countsEveryKeyOnce_andLeavesNoWorkingDirectory() throws Exception {
        List<Integer> input = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            input.add(i);
        }
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> sink = new CollectSink<>();
        p.fromCollection(input).keyBy(x -> x % 13).process(new CountAtEnd()).sinkTo(sink);

        executor().submit(p.plan(), "rocksdb keyed count").await();

        List<String> expected = new ArrayList<>();
        for (int k = 0; k < 13; k++) {
            expected.add(k + "=" + (10_000 / 13 + (k < 10_000 % 13 ? 1 : 0)));
        }
        assertThat(sink.results()).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(entries(base)).isEmpty();
    }

    @Test
    void slidingWindowSums_onRocksDb_equalBruteForceSums() throws Exception {
        Random random = new Random(3);
        List<Ev> events = new ArrayList<>();
        TreeMap<String, Long> expected = new TreeMap<>();
        for (int i = 0; i < 2000; i++) {
            Ev e = new Ev("s" + random.nextInt(7), random.nextInt(1000));
            events.add(e);
            long ts = e.value();
            for (long start = ts - Math.floorMod(ts, 20); start > ts - 60; start -= 20) {
                expected.merge(e.key() + "@" + (start + 60 - 1), ts, Long::sum);
            }
        }
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> sink = new CollectSink<>();
        p.fromCollection(events)
                .assignTimestampsAndWatermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, t) -> e.value()))
                .keyBy(Ev::key)
                .window(Windows.sliding(Duration.ofMillis(60), Duration.ofMillis(20)))
                .reduce(Ev::reduceSum)
                .map(e -> e.key() + "=" + e.value())
                .sinkTo(sink);

        executor().submit(p.plan(), "rocksdb sliding sums").await();

        TreeMap<String, Long> actual = new TreeMap<>();
        for (int i = 0; i < sink.size(); i++) {
            String[] kv = sink.results().get(i).split("=");
            assertThat(actual.put(kv[0] + "@" + sink.timestamps().get(i), Long.parseLong(kv[1]))).isNull();
        }
        assertThat(actual).isEqualTo(expected);
        assertThat(entries(base)).isEmpty();
    }

    private static List<Path> entries(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }
}
