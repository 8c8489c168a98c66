package io.millrace.api.functions;

/**
 * Combines one row of each side of a join into one result. Called once per matching pair, on the join's task
 * thread; must not change its arguments (a row may match several rows of the other side).
 */
@FunctionalInterface
public interface JoinFunction<A, B, R> extends java.io.Serializable {
    R join(A left, B right) throws Exception;
}
