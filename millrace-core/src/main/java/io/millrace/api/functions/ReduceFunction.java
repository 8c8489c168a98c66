package io.millrace.api.functions;

/** Combines two values of the same type into one; must be associative. */
@FunctionalInterface
public interface ReduceFunction<T> extends java.io.Serializable {
    T reduce(T a, T b) throws Exception;
}
