package io.millrace.operator;

/**
 * A user function failed. The message names the operator, its subtask and the record it failed on,
 * so the user can find both. Thrown through chained operators unchanged.
 */
public final class UserFunctionException extends RuntimeException {
    private UserFunctionException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Wraps {@code cause}, unless it already is a UserFunctionException (from a chained operator). */
    public static RuntimeException of(OperatorContext ctx, Object record, Throwable cause) {
        if (cause instanceof UserFunctionException u) {
            return u;
        }
        if (cause instanceof TaskCancelledException t) {
            return t;
        }
        return new UserFunctionException(
                "operator '" + ctx.operatorName() + "' (subtask " + (ctx.subtaskIndex() + 1) + "/" + ctx.parallelism()
                        + ") failed on record " + describe(record) + ": " + cause,
                cause);
    }

    static String describe(Object value) {
        String s = String.valueOf(value);
        return s.length() > 200 ? s.substring(0, 200) + "…" : s;
    }
}
