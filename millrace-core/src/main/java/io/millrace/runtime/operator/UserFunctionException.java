package io.millrace.runtime.operator;

/**
 * A user function failed: names the operator, its subtask and the record (or timer) being processed.
 * Operators wrap exceptions of user code with {@link #of}; an exception that already is a
 * UserFunctionException (thrown by a chained downstream operator) is rethrown unchanged, so the
 * message always names the operator where the failure happened.
 */
public final class UserFunctionException extends RuntimeException {
    /** Longest record text kept in the message. */
    static final int MAX_RECORD_CHARS = 200;

    private UserFunctionException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * The exception to throw for {@code cause}: {@code cause} itself when it already is a
     * UserFunctionException, otherwise a new one naming the operator and {@code record}.
     */
    public static UserFunctionException of(OperatorContext ctx, Object record, Throwable cause) {
        if (cause instanceof UserFunctionException u) {
            return u;
        }
        return new UserFunctionException("operator '" + ctx.operatorName() + "' (subtask " + ctx.subtaskIndex()
                + ") failed on record " + describe(record) + ": " + cause, cause);
    }

    /** Same as {@link #of} for a firing timer. */
    public static UserFunctionException onTimer(OperatorContext ctx, long timestamp, Object key, Throwable cause) {
        if (cause instanceof UserFunctionException u) {
            return u;
        }
        return new UserFunctionException("operator '" + ctx.operatorName() + "' (subtask " + ctx.subtaskIndex()
                + ") failed on timer " + timestamp + " of key " + describe(key) + ": " + cause, cause);
    }

    private static String describe(Object value) {
        String text;
        try {
            text = String.valueOf(value);
        } catch (RuntimeException e) {
            text = "<toString failed: " + e + ">";
        }
        return text.length() <= MAX_RECORD_CHARS ? text : text.substring(0, MAX_RECORD_CHARS) + "...(" + text.length() + " chars)";
    }
}
