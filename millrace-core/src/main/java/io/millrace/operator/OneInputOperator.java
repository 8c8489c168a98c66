package io.millrace.operator;

/** An operator with one logical input (which may be fed by several edges, as after a union). */
public interface OneInputOperator<IN, OUT> extends StreamOperator<OUT> {
    /** One record with its event timestamp ({@code Long.MIN_VALUE} when it has none). */
    void processRecord(IN value, long timestamp) throws Exception;
}
