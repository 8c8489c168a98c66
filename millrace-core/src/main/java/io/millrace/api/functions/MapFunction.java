package io.millrace.api.functions;

/** Transforms one record into exactly one record. Called by the operator's task thread only. */
@FunctionalInterface
public interface MapFunction<IN, OUT> extends java.io.Serializable {
    OUT map(IN value) throws Exception;
}
