package io.millrace.api.functions;

/**
 * Optional lifecycle of a user function: {@link #open} before the first record, {@link #close} after
 * the last one or on cancellation. Both run on the operator's task thread.
 */
public interface RichFunction {
    default void open(RuntimeContext context) throws Exception {}

    default void close() throws Exception {}
}
