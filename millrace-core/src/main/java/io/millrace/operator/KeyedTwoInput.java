package io.millrace.operator;

/**
 * A keyed two-input operator that can take records whose key and key group were computed by the hash exchange
 * in front of it, so that neither is computed twice per record (the two-input form of {@link KeyedInput}). Called
 * by the task thread instead of {@link TwoInputOperator#processRecord1} / {@link TwoInputOperator#processRecord2}
 * for records that arrive with their keys.
 */
public interface KeyedTwoInput<A, B> {
    void processKeyedRecord1(Object key, int keyGroup, A value, long timestamp) throws Exception;

    void processKeyedRecord2(Object key, int keyGroup, B value, long timestamp) throws Exception;
}
