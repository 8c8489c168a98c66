package io.millrace.runtime.task;

/** A checked exception from an operator, carried up the chain with the operator's name. */
public final class OperatorFailure extends RuntimeException {
    public OperatorFailure(String operator, Throwable cause) {
        super("operator '" + operator + "' failed: " + cause, cause);
    }
}
