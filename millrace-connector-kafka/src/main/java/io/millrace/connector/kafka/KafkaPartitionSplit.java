package io.millrace.connector.kafka;

import io.millrace.api.source.SourceSplit;
import org.apache.kafka.common.TopicPartition;

/**
 * One partition of a topic and how far it was read. {@code nextOffset} is the offset of the next record to read:
 * a position at or after 0, or, before the reader first looked the partition up, one of {@link #EARLIEST},
 * {@link #LATEST} and {@link #COMMITTED}. {@code stopOffset} is where a bounded source stops (exclusive):
 * {@link #UNBOUNDED}, {@link #LATEST} (the end the reader finds when it first looks, then fixed in the split), or
 * an offset. The split id is {@code topic-partition}, as Kafka names partitions.
 *
 * <p>A split is tied to nothing but its topic and partition, so that splits can be handed to any subtask, taken
 * away and handed elsewhere: after a restore at another parallelism the restored splits are spread over the new
 * subtasks as they are.
 */
public record KafkaPartitionSplit(String topic, int partition, long nextOffset, long stopOffset) implements SourceSplit {
    /** The first offset still in the partition. */
    public static final long EARLIEST = -2;
    /** The end of the partition (for a read_committed reader: the last stable offset). */
    public static final long LATEST = -1;
    /** The consumer group's committed offset, or the earliest if the group has none. */
    public static final long COMMITTED = -3;
    /** No stop offset: read for ever. */
    public static final long UNBOUNDED = Long.MAX_VALUE;

    public KafkaPartitionSplit {
        if (topic == null || topic.isEmpty()) {
            throw new IllegalArgumentException("topic must not be empty");
        }
        if (partition < 0) {
            throw new IllegalArgumentException("partition must not be negative, was " + partition + " of topic " + topic);
        }
        if (nextOffset < COMMITTED) {
            throw new IllegalArgumentException("offset " + nextOffset + " of " + topic + "-" + partition
                    + " is neither a position nor EARLIEST, LATEST or COMMITTED");
        }
        if (stopOffset < LATEST) {
            throw new IllegalArgumentException("stop offset " + stopOffset + " of " + topic + "-" + partition
                    + " is neither an offset nor LATEST or UNBOUNDED");
        }
    }

    @Override
    public String splitId() {
        return topic + "-" + partition;
    }

    public TopicPartition topicPartition() {
        return new TopicPartition(topic, partition);
    }

    /** The same partition, read up to {@code offset} (exclusive). */
    KafkaPartitionSplit at(long offset) {
        return new KafkaPartitionSplit(topic, partition, offset, stopOffset);
    }

    KafkaPartitionSplit stoppingAt(long offset) {
        return new KafkaPartitionSplit(topic, partition, nextOffset, offset);
    }

    boolean bounded() {
        return stopOffset != UNBOUNDED;
    }

    /** Version 1: topic (UTF), partition (int), next offset (long), stop offset (long). */
    static final class Codec extends io.millrace.api.source.DataCodec<KafkaPartitionSplit> {
        private static final long serialVersionUID = 1L;

        @Override
        public int version() {
            return 1;
        }

        @Override
        protected void write(KafkaPartitionSplit s, java.io.DataOutputStream out) throws java.io.IOException {
            out.writeUTF(s.topic());
            out.writeInt(s.partition());
            out.writeLong(s.nextOffset());
            out.writeLong(s.stopOffset());
        }

        @Override
        protected KafkaPartitionSplit read(int version, java.io.DataInputStream in) throws java.io.IOException {
            return new KafkaPartitionSplit(in.readUTF(), in.readInt(), in.readLong(), in.readLong());
        }
    }
}
