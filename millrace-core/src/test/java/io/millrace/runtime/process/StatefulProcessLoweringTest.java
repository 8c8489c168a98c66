package io.millrace.runtime.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.plan.LogicalNode;
import io.millrace.api.plan.Specs;
import io.millrace.operator.SpecLowering;
import io.millrace.runtime.plan.OperatorLowering;
import io.millrace.testing.OneInputOperatorHarness;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class StatefulProcessLoweringTest {

    /** Counts records in a field: shared across subtasks it would count for all of them. */
    static final class FieldCounter extends KeyedProcessFunction<String, String, Integer> {
        private int seen;

        @Override
        public void processElement(String value, Context<String> ctx, Collector<Integer> out) {
            out.collect(++seen);
        }
    }

    private static SpecLowering lowering() {
        return ServiceLoader.load(SpecLowering.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(l -> l instanceof StatefulProcessLowering)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void serviceLoaderFindsTheLowering_forKeyedProcessAndCoProcessSpecs() {
        SpecLowering lowering = lowering();
        assertThat(lowering.handles(new Specs.KeyedProcessSpec<>(new FieldCounter()))).isTrue();
        assertThat(lowering.handles(new Specs.CoProcessSpec<>(new CoProcessOperatorTest.Merge(), false))).isTrue();
        assertThat(lowering.handles(new Specs.MapSpec<String, String>(s -> s))).isFalse();
        assertThat(lowering.create(new Specs.CoProcessSpec<>(new CoProcessOperatorTest.Merge(), false)))
                .isInstanceOf(CoProcessOperator.class);
    }

    @Test
    @SuppressWarnings("unchecked")
    void eachSubtaskGetsItsOwnCopyOfTheFunction() throws Exception {
        LogicalNode node = new LogicalNode(0, new Specs.KeyedProcessSpec<>(new FieldCounter()));
        OperatorLowering operators = new OperatorLowering();
        var first = OneInputOperatorHarness.of((KeyedProcessOperator<String, String, Integer>) operators.create(node, 0, 2))
                .keyedBy((String s) -> s).open();
        var second = OneInputOperatorHarness.of((KeyedProcessOperator<String, String, Integer>) operators.create(node, 1, 2))
                .keyedBy((String s) -> s).open();
        first.processElement("a", 0);
        first.processElement("b", 0);
        second.processElement("c", 0);
        assertThat(first.extractOutputValues()).containsExactly(1, 2);
        assertThat(second.extractOutputValues()).containsExactly(1);
    }

    /** Not serializable: holds a thread. */
    static final class HoldsAThread extends KeyedProcessFunction<String, String, String> {
        private final Thread thread = new Thread(() -> {});

        @Override
        public void processElement(String value, Context<String> ctx, Collector<String> out) {
            out.collect(thread.getName());
        }
    }

    @Test
    void nonSerializableFunction_runsAlone_butIsRefusedInParallelNamingOperatorAndClass() {
        LogicalNode node = new LogicalNode(0, new Specs.KeyedProcessSpec<>(new HoldsAThread()));
        node.setName("thread-holder");
        OperatorLowering operators = new OperatorLowering();
        assertThat(operators.create(node, 0, 1)).isInstanceOf(KeyedProcessOperator.class);
        assertThatThrownBy(() -> operators.create(node, 1, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("thread-holder")
                .hasMessageContaining("HoldsAThread")
                .hasMessageContaining("parallelism 1");
    }
}
