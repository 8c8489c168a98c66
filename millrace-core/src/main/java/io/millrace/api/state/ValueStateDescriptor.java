package io.millrace.api.state;

/** Describes a {@link ValueState}. */
public final class ValueStateDescriptor<T> extends StateDescriptor<ValueState<T>> {
    public ValueStateDescriptor(String name) {
        super(name);
    }

    @Override
    public Kind kind() {
        return Kind.VALUE;
    }
}
