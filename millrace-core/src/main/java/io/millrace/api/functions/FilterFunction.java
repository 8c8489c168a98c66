package io.millrace.api.functions;

/** Keeps the records for which {@link #filter} returns true. */
@FunctionalInterface
public interface FilterFunction<T> extends java.io.Serializable {
    boolean filter(T value) throws Exception;
}
