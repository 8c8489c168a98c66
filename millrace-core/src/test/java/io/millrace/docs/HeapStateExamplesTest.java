package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.CoProcessFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.state.ListState;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example of docs/state-backends.md "Serialized values on the heap"; it runs here. */
class HeapStateExamplesTest {
    record Machine(String id, String line) {}

    record Reading(String machine, double value) {}

    /** Each reading with its machine's line; readings that come before their machine wait for it. */
    static final class LineOfReading extends CoProcessFunction<Machine, Reading, String> {
        private transient ValueState<Machine> machine;
        private transient ListState<Reading> waiting;

        @Override
        public void open(RuntimeContext context) {
            machine = context.state().getState(new ValueStateDescriptor<>("machine"));
            waiting = context.state().getListState(new ListStateDescriptor<>("waiting"));
        }

        @Override
        public void processElement1(Machine m, Context ctx, Collector<String> out) {
            machine.update(m);
            for (Reading r : waiting.get()) {
                out.collect(m.line() + " " + r.machine() + " " + r.value());
            }
            waiting.clear();
        }

        @Override
        public void processElement2(Reading r, Context ctx, Collector<String> out) {
            Machine m = machine.value(); // a copy, decoded from the state's bytes
            if (m != null) {
                out.collect(m.line() + " " + r.machine() + " " + r.value());
            } else {
                waiting.add(r); // appends this reading's bytes only
            }
        }
    }

    @TempDir
    Path checkpoints;

    @Test
    void aJoinWhoseStateGrows_keepsItsValuesSerialized() {
        List<Machine> machines = new ArrayList<>();
        List<Reading> readings = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            machines.add(new Machine("m" + i, "line-" + (i % 3)));
            readings.add(new Reading("m" + i, i + 1));
            readings.add(new Reading("m" + i, -(i + 1)));
        }
        // tag::serialized-values[]
        PipelineConfig config = new PipelineConfig()
                .parallelism(2)
                .stateBackendOption("state.heap.values", "serialized"); // "auto" is the default
        config.checkpoints().directory(checkpoints).interval(Duration.ofMillis(50));
        Pipeline pipeline = Pipeline.create(config);
        CollectSink<String> joined = new CollectSink<>();
        pipeline.fromCollection(machines)
                .connect(pipeline.fromCollection(readings))
                .keyBy(Machine::id, Reading::machine)
                .process(new LineOfReading())
                .sinkTo(joined);
        pipeline.execute("readings by line");
        // end::serialized-values[]
        assertThat(joined.results()).hasSize(4_000)
                .contains("line-0 m0 1.0", "line-0 m0 -1.0", "line-1 m1999 2000.0", "line-1 m1999 -2000.0")
                .doesNotHaveDuplicates();
    }
}
