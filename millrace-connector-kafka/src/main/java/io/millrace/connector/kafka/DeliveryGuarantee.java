package io.millrace.connector.kafka;

/** What a {@link KafkaSink} promises about records written to Kafka across failures and restarts. */
public enum DeliveryGuarantee {
    /**
     * Every record is acknowledged by the brokers before a checkpoint completes; after a restore the records since that
     * checkpoint are written again, so a consumer may see some twice.
     */
    AT_LEAST_ONCE,
    /**
     * The records between two checkpoints go into one Kafka transaction per sink subtask, committed when the checkpoint
     * completes; a {@code read_committed} consumer sees every record exactly once.
     */
    EXACTLY_ONCE
}
