package io.millrace.connector.kafka;

/**
 * A Kafka transaction prepared at a checkpoint: everything written in it is flushed to the brokers, and only the
 * commit is missing. The producer id and epoch are those the transaction was written with, so that another producer
 * (of a restarted job) can finish it with the same transactional id; {@code transactionV2} says whether it was written
 * with Kafka's second transaction protocol, which the finishing producer must speak too.
 */
public record KafkaCommittable(String transactionalId, long producerId, short epoch, boolean transactionV2) implements java.io.Serializable {}
