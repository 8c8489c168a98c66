package io.millrace.runtime.operator;

/**
 * An operator whose output becomes visible when it is flushed (a sink's writer): its task calls
 * {@link #flushIdle} whenever it runs out of input for now. Task thread. An interface rather than a class test,
 * because the operator may run as a copy of its class (see {@link ClassCopies}).
 */
public interface FlushedWhenIdle {
    /** Makes buffered output visible. */
    void flushIdle() throws Exception;
}
