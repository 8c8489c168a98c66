package io.millrace.connector.kafka;

import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * Where a {@link KafkaSource} starts reading a partition on a fresh start (a restored job always continues from the
 * offsets in its checkpoint). Partitions not named in {@link #given} start at the given default.
 */
public final class StartingOffsets implements Serializable {
    private final long defaultOffset;
    private final TreeMap<String, Long> given;

    private StartingOffsets(long defaultOffset, TreeMap<String, Long> given) {
        this.defaultOffset = defaultOffset;
        this.given = given;
    }

    /** From the first record still in each partition. */
    public static StartingOffsets earliest() {
        return new StartingOffsets(KafkaPartitionSplit.EARLIEST, new TreeMap<>());
    }

    /** From the end of each partition: only records written after the job started. */
    public static StartingOffsets latest() {
        return new StartingOffsets(KafkaPartitionSplit.LATEST, new TreeMap<>());
    }

    /** From the offsets committed by the source's consumer group; a partition without one starts at the earliest. */
    public static StartingOffsets committed() {
        return new StartingOffsets(KafkaPartitionSplit.COMMITTED, new TreeMap<>());
    }

    /** From the given offset for each named partition; others start at {@code otherwise}. */
    public static StartingOffsets given(Map<TopicPartition, Long> offsets, StartingOffsets otherwise) {
        TreeMap<String, Long> all = new TreeMap<>(otherwise.given);
        offsets.forEach((tp, offset) -> {
            if (offset < 0) {
                throw new IllegalArgumentException("starting offset of " + tp + " must not be negative, was " + offset);
            }
            all.put(tp.toString(), offset);
        });
        return new StartingOffsets(otherwise.defaultOffset, all);
    }

    /** The start of one partition: an offset, or one of the split's markers. */
    long of(TopicPartition partition) {
        return given.getOrDefault(partition.toString(), defaultOffset);
    }

    boolean needsGroup() {
        return defaultOffset == KafkaPartitionSplit.COMMITTED;
    }
}
