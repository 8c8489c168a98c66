package io.millrace.api.state;

/** Describes a {@link ListState}. */
public final class ListStateDescriptor<T> extends StateDescriptor<ListState<T>> {
    public ListStateDescriptor(String name) {
        super(name);
    }

    @Override
    public Kind kind() {
        return Kind.LIST;
    }
}
