package io.millrace.runtime.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.functions.MapFunction;
import io.millrace.api.plan.LogicalNode;
import io.millrace.api.plan.Specs;
import java.lang.reflect.Field;
import org.junit.jupiter.api.Test;

class OperatorCopiesTest {
    private static Object functionOf(Object operator) throws ReflectiveOperationException {
        Field f = operator.getClass().getDeclaredField("function"); // a copy of MapOperator's class (ClassCopies)
        f.setAccessible(true);
        return f.get(operator);
    }

    @Test
    void anOperatorRunningAlone_getsTheUsersOwnFunction() throws Exception {
        MapFunction<String, String> upper = s -> s.toUpperCase(java.util.Locale.ROOT);
        LogicalNode node = new LogicalNode(0, new Specs.MapSpec<>(upper));
        assertThat(functionOf(new OperatorLowering().create(node, 0, 1))).isSameAs(upper);
    }

    @Test
    @SuppressWarnings("unchecked")
    void operatorsInParallel_allGetCopies_ofOneClass_evenForALambda() throws Exception {
        String suffix = "!"; // a capturing lambda: its copies are distinct objects (a non-capturing one reads back as one)
        MapFunction<String, String> upper = s -> s.toUpperCase(java.util.Locale.ROOT) + suffix;
        LogicalNode node = new LogicalNode(0, new Specs.MapSpec<>(upper));
        OperatorLowering operators = new OperatorLowering();
        Object first = functionOf(operators.create(node, 0, 2));
        Object second = functionOf(operators.create(node, 1, 2));
        assertThat(first).isNotSameAs(upper).isNotSameAs(second);
        // a lambda read back from its serialized form is of another class than the one the user built: had
        // subtask 0 kept the user's, the engine's call site would see two classes for one function
        assertThat(first.getClass()).isSameAs(second.getClass()).isNotSameAs(upper.getClass());
        assertThat(((MapFunction<String, String>) first).map("a")).isEqualTo("A!");
    }
}
