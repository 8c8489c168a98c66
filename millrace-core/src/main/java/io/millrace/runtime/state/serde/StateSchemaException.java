package io.millrace.runtime.state.serde;

/**
 * Stored state cannot be read with the classes of the running job: a record component changed type
 * incompatibly, a record or enum class is gone, an enum constant is gone, a record became a plain class,
 * or a key type changed. The message names the state (and operator when known), the class, the field
 * or constant, the old and new types, and what to do. Thrown at restore or when the state is created,
 * so that the job fails at start rather than at the first record that meets an old value.
 */
public final class StateSchemaException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    StateSchemaException(String context, String problem, String advice) {
        super("cannot restore " + (context != null ? context : "stored state") + ": " + problem + ". " + advice);
    }

    /** Advice for a state whose stored values cannot be read: what the user can change. */
    static final String RENAME = "or give the state descriptor a new name so that the state starts empty";
}
