package io.millrace.api.functions;

/**
 * Like {@link JoinFunction}, emitting any number of results (none to filter a pair out) per matching pair. Must
 * not change its arguments.
 */
@FunctionalInterface
public interface FlatJoinFunction<A, B, R> extends java.io.Serializable {
    void join(A left, B right, Collector<R> out) throws Exception;
}
