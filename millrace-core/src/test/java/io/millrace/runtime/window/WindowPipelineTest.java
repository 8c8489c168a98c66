package io.millrace.runtime.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.Windows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Windows through the public API and the local runtime, at parallelism 2. */
class WindowPipelineTest {

    @Test
    void slidingWindowSums_throughTheRuntime_equalBruteForceSums() {
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
        p.execute("sliding sums");

        TreeMap<String, Long> actual = new TreeMap<>();
        for (int i = 0; i < sink.size(); i++) {
            String[] kv = sink.results().get(i).split("=");
            assertThat(actual.put(kv[0] + "@" + sink.timestamps().get(i), Long.parseLong(kv[1]))).isNull();
        }
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void countWindow_throughTheRuntime_emitsOneSumPerThreeRecordsOfAKey() {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Long> sink = new CollectSink<>();
        List<Ev> events = new ArrayList<>();
        for (int i = 1; i <= 13; i++) {
            events.add(new Ev(i % 2 == 0 ? "even" : "odd", i));
        }
        p.fromCollection(events).keyBy(Ev::key).countWindow(3).reduce(Ev::reduceSum).map(Ev::value).sinkTo(sink);
        p.execute("count windows");
        assertThat(sink.results()).as("13 is alone in an unfinished window").containsExactlyInAnyOrder(1L + 3 + 5, 7L + 9 + 11, 2L + 4 + 6, 8L + 10 + 12);
    }
}
