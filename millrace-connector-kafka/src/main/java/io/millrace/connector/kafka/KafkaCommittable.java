package io.millrace.connector.kafka;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * A Kafka transaction prepared at a checkpoint: everything written in it is flushed to the brokers, and only the
 * commit is missing. The producer id and epoch are those the transaction was written with, so that another producer
 * (of a restarted job) can finish it with the same transactional id; {@code transactionV2} says whether it was written
 * with Kafka's second transaction protocol, which the finishing producer must speak too. Stored in checkpoints by
 * {@link Codec}.
 */
public record KafkaCommittable(String transactionalId, long producerId, short epoch, boolean transactionV2) implements java.io.Serializable {

    /** Version 1: transactional id (UTF), producer id (long), epoch (short), transaction protocol 2 (boolean). */
    static final class Codec extends io.millrace.api.source.DataCodec<KafkaCommittable> {
        private static final long serialVersionUID = 1L;

        @Override
        public int version() {
            return 1;
        }

        @Override
        protected void write(KafkaCommittable c, DataOutputStream out) throws IOException {
            out.writeUTF(c.transactionalId());
            out.writeLong(c.producerId());
            out.writeShort(c.epoch());
            out.writeBoolean(c.transactionV2());
        }

        @Override
        protected KafkaCommittable read(int version, DataInputStream in) throws IOException {
            return new KafkaCommittable(in.readUTF(), in.readLong(), in.readShort(), in.readBoolean());
        }
    }
}
