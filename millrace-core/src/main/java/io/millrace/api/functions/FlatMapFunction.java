package io.millrace.api.functions;

/** Turns one record into zero or more records, emitted through the collector during the call. */
@FunctionalInterface
public interface FlatMapFunction<IN, OUT> extends java.io.Serializable {
    void flatMap(IN value, Collector<OUT> out) throws Exception;
}
