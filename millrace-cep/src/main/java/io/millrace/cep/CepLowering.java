package io.millrace.cep;

import io.millrace.api.plan.OperatorSpec;
import io.millrace.operator.SpecLowering;
import io.millrace.operator.StreamOperator;

/** Lowers {@link CepSpec} to a fresh {@link CepOperator} per subtask; found through META-INF/services. */
public final class CepLowering implements SpecLowering {
    @Override
    public boolean handles(OperatorSpec spec) {
        return spec instanceof CepSpec<?, ?>;
    }

    @Override
    public StreamOperator<?> create(OperatorSpec spec) {
        return create((CepSpec<?, ?>) spec);
    }

    private static <E, OUT> StreamOperator<OUT> create(CepSpec<E, OUT> spec) {
        return new CepOperator<>(spec.nfa(), spec.function(), spec.processingTime(), spec.lateTag());
    }
}
