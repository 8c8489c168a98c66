package io.millrace.runtime.state.heap;

import io.millrace.operator.OneInputOperator;
import io.millrace.runtime.window.Ev;
import io.millrace.runtime.window.WindowSnapshotContractTest;
import io.millrace.testing.HarnessSetup;
import io.millrace.testing.OneInputOperatorHarness;
import java.util.function.Supplier;

/**
 * The window snapshot contract on the heap backend. Every harness here is also checkpointed and restored into a
 * fresh operator after each input, so few key groups keep it fast.
 */
class WindowSnapshotTest extends WindowSnapshotContractTest {
    @Override
    protected HarnessSetup<OneInputOperatorHarness<Ev, Object>> harness(Supplier<OneInputOperator<Ev, Object>> operator) {
        return OneInputOperatorHarness.of(operator);
    }

    @Override
    protected int maxParallelism() {
        return 16;
    }
}
