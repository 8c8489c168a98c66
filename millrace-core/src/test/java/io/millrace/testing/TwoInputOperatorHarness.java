package io.millrace.testing;

import io.millrace.operator.TwoInputOperator;
import java.util.function.Supplier;

/**
 * A harness for a two-input operator. Watermarks can be given per input
 * ({@link #processWatermark1}/{@link #processWatermark2}: the operator sees their minimum when it
 * advances, as in the runtime) or combined ({@link #processWatermark}). Built from a factory, it checkpoints
 * and restores the operator into a fresh instance after every input (see {@link OperatorHarness}).
 */
public final class TwoInputOperatorHarness<A, B, OUT> extends OperatorHarness<OUT> {
    private long watermark1 = Long.MIN_VALUE;
    private long watermark2 = Long.MIN_VALUE;
    private long combined = Long.MIN_VALUE;

    private TwoInputOperatorHarness(TwoInputOperator<A, B, OUT> operator, Supplier<? extends TwoInputOperator<A, B, OUT>> factory,
            HarnessSetup<?> setup) throws Exception {
        super(operator, factory, setup);
    }

    /** A harness that keeps this one instance throughout. */
    public static <A, B, OUT> HarnessSetup<TwoInputOperatorHarness<A, B, OUT>> of(TwoInputOperator<A, B, OUT> operator) {
        return new HarnessSetup<>(setup -> new TwoInputOperatorHarness<>(operator, null, setup));
    }

    /** A harness that restores a fresh instance from a checkpoint after every input (unless told not to). */
    public static <A, B, OUT> HarnessSetup<TwoInputOperatorHarness<A, B, OUT>> of(Supplier<? extends TwoInputOperator<A, B, OUT>> factory) {
        return new HarnessSetup<>(setup -> new TwoInputOperatorHarness<>(null, factory, setup));
    }

    public void processElement1(A value, long timestamp) throws Exception {
        operator().processRecord1(value, timestamp);
        afterInput();
    }

    public void processElement2(B value, long timestamp) throws Exception {
        operator().processRecord2(value, timestamp);
        afterInput();
    }

    public void processWatermark1(long watermark) throws Exception {
        watermark1 = watermark;
        advanceCombined();
    }

    public void processWatermark2(long watermark) throws Exception {
        watermark2 = watermark;
        advanceCombined();
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        watermark1 = watermark;
        watermark2 = watermark;
        combined = watermark;
        super.processWatermark(watermark);
    }

    private void advanceCombined() throws Exception {
        long min = Math.min(watermark1, watermark2);
        if (min > combined) {
            combined = min;
            super.processWatermark(min);
        } else {
            afterInput();
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public TwoInputOperator<A, B, OUT> operator() {
        return (TwoInputOperator<A, B, OUT>) current();
    }
}
