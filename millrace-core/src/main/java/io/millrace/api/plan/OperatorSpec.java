package io.millrace.api.plan;

/**
 * What a logical node computes, as plain data: a user function and its settings. Front ends (the Java
 * API, SQL) produce specs; a runtime lowers each spec to a physical operator.
 */
public interface OperatorSpec extends java.io.Serializable {
    /** Name used when the user gives none. */
    String defaultName();

    /** Whether the operator uses keyed state or timers and so needs HASH input edges. */
    default boolean keyed() {
        return false;
    }
}
