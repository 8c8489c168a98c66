package io.millrace.testing;

import io.millrace.operator.OneInputOperator;
import java.util.function.Supplier;

/**
 * A harness for a one-input operator:
 *
 * <pre>
 *   var h = OneInputOperatorHarness.of(() -&gt; new KeyedProcessOperator&lt;&gt;(fn)).keyedBy(Reading::sensor).open();
 *   h.processElement(reading, 1_000);
 *   h.processWatermark(2_000);
 *   assertThat(h.extractOutputValues()).containsExactly(...);
 * </pre>
 *
 * Built from a factory (as above), it checkpoints and restores the operator into a fresh instance after
 * every input (see {@link OperatorHarness}); built from an instance, it keeps that instance.
 */
public final class OneInputOperatorHarness<IN, OUT> extends OperatorHarness<OUT> {
    private OneInputOperatorHarness(OneInputOperator<IN, OUT> operator, Supplier<? extends OneInputOperator<IN, OUT>> factory,
            HarnessSetup<?> setup) throws Exception {
        super(operator, factory, setup);
    }

    /** A harness that keeps this one instance throughout. */
    public static <IN, OUT> HarnessSetup<OneInputOperatorHarness<IN, OUT>> of(OneInputOperator<IN, OUT> operator) {
        return new HarnessSetup<>(setup -> new OneInputOperatorHarness<>(operator, null, setup));
    }

    /** A harness that restores a fresh instance from a checkpoint after every input (unless told not to). */
    public static <IN, OUT> HarnessSetup<OneInputOperatorHarness<IN, OUT>> of(Supplier<? extends OneInputOperator<IN, OUT>> factory) {
        return new HarnessSetup<>(setup -> new OneInputOperatorHarness<>(null, factory, setup));
    }

    public void processElement(IN value, long timestamp) throws Exception {
        operator().processRecord(value, timestamp);
        afterInput();
    }

    /** A record without event timestamp. */
    public void processElement(IN value) throws Exception {
        processElement(value, Long.MIN_VALUE);
    }

    @Override
    @SuppressWarnings("unchecked")
    public OneInputOperator<IN, OUT> operator() {
        return (OneInputOperator<IN, OUT>) current();
    }
}
