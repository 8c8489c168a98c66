package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.Pipeline;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.source.CollectionSource;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.runtime.process.KeyedProcessOperator;
import io.millrace.testing.Emitted;
import io.millrace.testing.OneInputOperatorHarness;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of docs/testing.md. */
class TestingExamplesTest {

    /** A temperature reading of a machine. */
    record Reading(String machine, double celsius) {}

    // tag::function[]
    /** Raises an alarm when a machine reads above 90 °C three times in a row; a cool reading resets it. */
    static final class OverheatAlarm extends KeyedProcessFunction<String, Reading, String> {
        private transient ValueState<Integer> hotInARow;

        @Override
        public void open(RuntimeContext context) {
            hotInARow = context.state().getState(new ValueStateDescriptor<>("hot-in-a-row"));
        }

        @Override
        public void processElement(Reading r, Context<String> ctx, Collector<String> out) {
            if (r.celsius() <= 90) {
                hotInARow.clear();
                return;
            }
            int n = hotInARow.value() == null ? 1 : hotInARow.value() + 1;
            hotInARow.update(n);
            if (n == 3) {
                out.collect("overheating: " + r.machine());
            }
        }
    }
    // end::function[]

    @Test
    void harness_drivesTheFunctionThroughACheckpointAndRestoreAfterEveryInput() throws Exception {
        // tag::harness[]
        try (var h = OneInputOperatorHarness.of(() -> new KeyedProcessOperator<>(new OverheatAlarm()))
                .keyedBy((Reading r) -> r.machine())
                .open()) {
            h.processElement(new Reading("press-1", 95), 1_000);
            h.processElement(new Reading("press-2", 97), 1_000);
            h.processElement(new Reading("press-1", 96), 2_000);
            h.processElement(new Reading("press-1", 99), 3_000);   // third hot reading of press-1 in a row

            assertThat(h.output()).containsExactly(new Emitted<>("overheating: press-1", 3_000));
            assertThat(h.restores()).isEqualTo(4);                 // a fresh instance after every input
        }
        // end::harness[]
    }

    @Test
    void pipeline_runsTheFunctionOnABoundedInputToTheEnd() throws Exception {
        // tag::pipeline[]
        CollectSink<String> alarms = new CollectSink<>();
        Pipeline pipeline = Pipeline.create();
        pipeline.config().parallelism(2);
        pipeline.fromSource(new CollectionSource<>(List.of(
                                new Reading("press-1", 95), new Reading("oven-7", 91), new Reading("press-1", 96),
                                new Reading("oven-7", 60), new Reading("press-1", 97), new Reading("oven-7", 92))),
                        WatermarkStrategy.<Reading>noWatermarks(), "readings")
                .keyBy(Reading::machine)
                .process(new OverheatAlarm())
                .sinkTo(alarms);
        pipeline.execute("overheat alarms");

        assertThat(alarms.results()).containsExactly("overheating: press-1");
        // end::pipeline[]
    }
}
