package io.millrace.runtime.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.metrics.TaskMetrics;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.runtime.plan.PhysicalPlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A keyed process function whose task ends the job sleeps through the source watermarks below its earliest
 * event-time timer, and one that feeds another task through those that cannot advance its own watermark (see
 * docs/event-time.md): two paced source subtasks send a watermark every millisecond each for half a second, about
 * a thousand each to each subtask of the function, while one record in 10,000 (each its own key) reaches it and
 * arms a timer at the end of its 100 ms of event time; every timer fires once, with the sum it reports.
 */
class TimerWakeupsTest {
    private static final int EVENTS = 200_000;
    /** Event time advances 1 ms per 100 events: 2,000 ms of event time, twenty 100 ms periods. */
    private static final int PER_MS = 100;
    private static final int ONE_IN = 10_000;

    /** Sums a key's values and reports the sum at the end of the 100 ms of event time of its last value (each key here has one). */
    static final class PeriodSums extends KeyedProcessFunction<Long, Long, String> {
        private transient ValueState<Long> sum;

        @Override
        public void open(RuntimeContext context) {
            sum = context.state().getState(new ValueStateDescriptor<>("sum"));
        }

        @Override
        public void processElement(Long value, Context<Long> ctx, Collector<String> out) {
            Long s = sum.value();
            sum.update(s == null ? value : s + value);
            ctx.timerService().registerEventTimeTimer(ctx.timestamp() / 100 * 100 + 99);
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext<Long> ctx, Collector<String> out) {
            out.collect(timestamp + ":" + sum.value());
            sum.clear();
        }
    }

    /**
     * Runs the job (the sink in the function's task, or at parallelism 1 in a task of its own), checks its plan and
     * that every period is reported once with its one value, and returns its result.
     */
    private static JobResult run(boolean sinkOfItsOwn) {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> out = new CollectSink<>();
        var sums = pipeline.fromSource(GeneratorSource.<Long>builder(i -> i).count(EVENTS).timestamps(i -> i / PER_MS).ratePerSecond(400_000).build(),
                        WatermarkStrategy.<Long>boundedOutOfOrderness(Duration.ofMillis(0)), "numbers")
                .filter(i -> i % ONE_IN == 0)
                .keyBy(i -> i / ONE_IN)
                .process(new PeriodSums()).name("sums");
        if (sinkOfItsOwn) {
            sums.sinkTo(out).parallelism(1);
        } else {
            sums.sinkTo(out);
        }
        String plan = PhysicalPlan.of(pipeline.plan()).describe();
        assertThat(plan).as("the function and the sink share the last task, or not").containsPattern(sinkOfItsOwn ? "x2: sums\n" : "x2: sums -> \\S+\n");

        JobResult result = pipeline.execute("timer wake-ups");

        List<String> want = new ArrayList<>();
        for (long i = 0; i < EVENTS; i += ONE_IN) {
            want.add((i / PER_MS / 100 * 100 + 99) + ":" + i);
        }
        assertThat(out.results()).as("one report per period (one record each), each once").containsExactlyInAnyOrderElementsOf(want);
        return result;
    }

    @Test
    void aTimerTaskThatEndsTheJob_wakesForRecordsAndTimers_notForEverySourceWatermark() {
        for (TaskMetrics task : run(false).metrics().tasks()) {
            if (task.task().startsWith("sums")) {
                // only the watermark that completes the crossing of a timer wakes the task (ten records, ten
                // timers, and sources finding a channel full of watermarks while its bound is still short); a task
                // woken for every source watermark would count several hundred
                assertThat(task.wakeups()).as("wake-ups of %s", task).isPositive().isLessThan(150);
            }
        }
    }

    @Test
    void aTaskThatFeedsAnother_wakesOnlyForWatermarksThatAdvanceItsOwn() {
        JobResult result = run(true);
        for (TaskMetrics task : result.metrics().tasks()) {
            if (task.task().equals("sums")) {
                // its watermark is the lower of the two sources': woken only when a source watermark advances it,
                // not for each of the ~2,000 source watermarks
                assertThat(task.wakeups()).as("wake-ups of %s", task).isPositive().isLessThan(700);
            } else if (task.task().startsWith("sink")) {
                assertThat(task.wakeups()).as("the sink ends the job: wake-ups of %s", task).isPositive().isLessThan(150);
            }
        }
    }
}
