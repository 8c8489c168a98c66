package io.millrace.cep;

import io.millrace.api.OutputTag;
import io.millrace.api.plan.OperatorSpec;

/** The plan's node for a pattern on a keyed stream: the compiled pattern, the function for its matches, and the time mode. */
record CepSpec<E, OUT>(Nfa<E> nfa, PatternProcessFunction<E, OUT> function, boolean processingTime, OutputTag<E> lateTag)
        implements OperatorSpec {
    @Override
    public String defaultName() {
        return "pattern";
    }

    @Override
    public boolean keyed() {
        return true;
    }
}
