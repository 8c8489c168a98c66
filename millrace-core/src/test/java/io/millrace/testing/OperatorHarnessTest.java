package io.millrace.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.operator.AbstractStreamOperator;
import io.millrace.operator.OneInputOperator;
import io.millrace.runtime.process.KeyedProcessOperator;
import java.io.Serializable;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The harness attacks operators with a checkpoint and restore after every input, and catches what breaks. */
class OperatorHarnessTest {

    /** Running count per key in value state: survives a restore only if the state does. */
    static final class RunningCount extends KeyedProcessFunction<String, String, String> {
        private transient ValueState<Integer> count;

        @Override
        public void open(RuntimeContext context) {
            count = context.state().getState(new ValueStateDescriptor<>("count"));
        }

        @Override
        public void processElement(String value, Context<String> ctx, Collector<String> out) {
            int next = count.value() == null ? 1 : count.value() + 1;
            count.update(next);
            out.collect(value + next);
        }
    }

    /** Counts records in a field it also checkpoints as operator state. */
    static final class CountsInOperatorState extends AbstractStreamOperator<Long> implements OneInputOperator<String, Long> {
        private long seen;

        @Override
        public void processRecord(String value, long timestamp) {
            output.emit(++seen, timestamp);
        }

        @Override
        public List<? extends Serializable> snapshotOperatorState(long checkpointId) {
            return List.of(seen);
        }

        @Override
        public void restoreOperatorState(List<Serializable> items) {
            seen = items.stream().mapToLong(i -> (Long) i).sum();
        }
    }

    /** Emits a marker for every watermark above the last it saw, remembered only in a field: fires again after restore. */
    static final class ForgetsWhatItFired extends AbstractStreamOperator<String> implements OneInputOperator<String, String> {
        private long fired = Long.MIN_VALUE;

        @Override
        public void processRecord(String value, long timestamp) {}

        @Override
        public void processWatermark(long watermark) throws Exception {
            if (watermark > fired) {
                fired = watermark;
                output.emit("fired " + watermark, watermark);
            }
            super.processWatermark(watermark);
        }
    }

    @Test
    void whenBuiltFromAFactory_thenKeyedStateSurvivesARestoreAfterEveryInput() throws Exception {
        try (var h = OneInputOperatorHarness.of(() -> new KeyedProcessOperator<>(new RunningCount())).keyedBy((String s) -> s).open()) {
            h.processElement("a", 1);
            h.processElement("b", 2);
            h.processElement("a", 3);
            h.processWatermark(10);
            assertThat(h.extractOutputValues()).containsExactly("a1", "b1", "a2");
            assertThat(h.restores()).isEqualTo(4);
            assertThat(h.watermarks()).containsExactly(10L);
        }
    }

    @Test
    void whenBuiltFromAFactory_thenOperatorStateSurvivesARestore() throws Exception {
        try (var h = OneInputOperatorHarness.of(CountsInOperatorState::new).open()) {
            h.processElement("x", 1);
            h.processElement("y", 2);
            h.processElement("z", 3);
            assertThat(h.extractOutputValues()).containsExactly(1L, 2L, 3L);
        }
    }

    @Test
    void whenARestoredOperatorFiresAgainForItsOldWatermark_thenTheHarnessFailsNamingTheCheckpoint() throws Exception {
        try (var h = OneInputOperatorHarness.of(ForgetsWhatItFired::new).open()) {
            assertThatThrownBy(() -> h.processWatermark(5))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("after restoring checkpoint 1")
                    .hasMessageContaining("watermark 5");
        }
    }

    @Test
    void whenBuiltFromAnInstance_thenTheSameInstanceRunsThroughout() throws Exception {
        var operator = new ForgetsWhatItFired();
        try (var h = OneInputOperatorHarness.of(operator).open()) {
            h.processWatermark(5);
            h.processWatermark(5);
            assertThat(h.operator()).isSameAs(operator);
            assertThat(h.restores()).isZero();
            assertThat(h.extractOutputValues()).containsExactly("fired 5");
        }
    }

    @Test
    void whenRestoresAreTurnedOff_thenAFactoryBuiltHarnessKeepsItsInstance() throws Exception {
        try (var h = OneInputOperatorHarness.of(ForgetsWhatItFired::new).restoreBetweenInputs(false).open()) {
            h.processWatermark(5);
            assertThat(h.restores()).isZero();
            assertThat(h.extractOutputValues()).containsExactly("fired 5");
        }
    }
}
