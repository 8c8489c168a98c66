package io.millrace.operator;

/** An operator with two inputs of different types. Its watermark is the minimum of both inputs. */
public interface TwoInputOperator<IN1, IN2, OUT> extends StreamOperator<OUT> {
    void processRecord1(IN1 value, long timestamp) throws Exception;

    void processRecord2(IN2 value, long timestamp) throws Exception;
}
