package io.millrace.testing;

import io.millrace.runtime.operator.OneInputOperator;

/**
 * A harness for a one-input operator:
 *
 * <pre>
 *   var h = OneInputOperatorHarness.of(new KeyedProcessOperator&lt;&gt;(fn)).keyedBy(Reading::sensor).open();
 *   h.processElement(reading, 1_000);
 *   h.processWatermark(2_000);
 *   assertThat(h.extractOutputValues()).containsExactly(...);
 * </pre>
 */
public final class OneInputOperatorHarness<IN, OUT> extends OperatorHarness<OUT> {
    private final OneInputOperator<IN, OUT> operator;

    private OneInputOperatorHarness(OneInputOperator<IN, OUT> operator, HarnessSetup<?> setup) throws Exception {
        super(operator, setup);
        this.operator = operator;
    }

    public static <IN, OUT> HarnessSetup<OneInputOperatorHarness<IN, OUT>> of(OneInputOperator<IN, OUT> operator) {
        return new HarnessSetup<>(setup -> new OneInputOperatorHarness<>(operator, setup));
    }

    public void processElement(IN value, long timestamp) throws Exception {
        operator.processRecord(value, timestamp);
    }

    /** A record without event timestamp. */
    public void processElement(IN value) throws Exception {
        operator.processRecord(value, Long.MIN_VALUE);
    }
}
