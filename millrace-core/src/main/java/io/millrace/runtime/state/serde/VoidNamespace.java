package io.millrace.runtime.state.serde;

/** The single namespace of operators without windows (process functions). Equal only to itself, stable hash. */
public final class VoidNamespace {
    public static final VoidNamespace INSTANCE = new VoidNamespace();

    private VoidNamespace() {}

    @Override
    public int hashCode() {
        return 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VoidNamespace;
    }

    @Override
    public String toString() {
        return "VOID";
    }
}
