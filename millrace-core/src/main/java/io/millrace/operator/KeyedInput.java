package io.millrace.operator;

/**
 * A keyed one-input operator that can take records whose key and key group were computed by the hash
 * exchange in front of it, so that neither is computed twice per record. Called by the task thread
 * instead of {@link OneInputOperator#processRecord} for records that arrive with their keys.
 */
public interface KeyedInput<IN> {
    void processKeyedRecord(Object key, int keyGroup, IN value, long timestamp) throws Exception;
}
