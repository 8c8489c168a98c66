package io.millrace.api.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.metrics.TaskMetrics;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.runtime.plan.PhysicalPlan;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A window task whose chain ends the job sleeps through the source watermarks that cannot fire a window there (see
 * docs/event-time.md): two paced source subtasks send a watermark every millisecond each for half a second, about
 * a thousand to each window subtask, while one record in 10,000 reaches the windows; a window subtask wakes for
 * those records, the watermarks that end one of its windows and its idle waits, and its results are every
 * window's, once.
 */
class WindowWakeupsTest {
    private static final int EVENTS = 200_000;
    /** Event time advances 1 ms per 100 events: 2,000 ms of event time, twenty 100 ms windows. */
    private static final int PER_MS = 100;
    private static final int ONE_IN = 10_000;

    @Test
    void aWindowTaskThatEndsTheJob_wakesForRecordsAndWindowEnds_notForEverySourceWatermark() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Long> out = new CollectSink<>();
        pipeline.fromSource(GeneratorSource.<Long>builder(i -> i).count(EVENTS).timestamps(i -> i / PER_MS).ratePerSecond(400_000).build(),
                        WatermarkStrategy.<Long>boundedOutOfOrderness(Duration.ofMillis(0)), "numbers")
                .filter(i -> i % ONE_IN == 0)
                .keyBy(i -> i / ONE_IN % 2)
                .window(Windows.tumbling(Duration.ofMillis(100))).reduce(Long::sum).name("sums")
                .sinkTo(out);
        String plan = PhysicalPlan.of(pipeline.plan()).describe();
        assertThat(plan).as("the window and the sink share the last task").containsPattern("x2: sums -> \\S+\n");

        JobResult result = pipeline.execute("window wake-ups");

        Map<Long, Long> want = new TreeMap<>();
        for (long i = 0; i < EVENTS; i += ONE_IN) {
            want.put(i / PER_MS / 100 * 100 + 99, i);
        }
        Map<Long, Long> got = new TreeMap<>();
        for (int i = 0; i < out.size(); i++) {
            assertThat(got.put(out.timestamps().get(i), out.results().get(i))).as("one result per window").isNull();
        }
        assertThat(got).hasSize(20).isEqualTo(want);

        for (TaskMetrics window : result.metrics().tasks()) {
            if (window.task().startsWith("sums")) {
                // only the watermark that completes the crossing of a window end wakes the task (ten records, ten
                // window ends, and sources finding a channel full of watermarks while its bound is still short), not
                // each of its ~1,000 watermarks; a loaded machine adds idle waits (up to ~370 seen with other builds running)
                assertThat(window.wakeups()).as("wake-ups of %s", window).isPositive().isLessThan(600);
            }
        }
    }
}
