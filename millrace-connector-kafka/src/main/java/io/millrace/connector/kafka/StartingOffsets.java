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
    /** The default start is the first record with a timestamp at or after {@link #timestamp}. */
    static final long TIMESTAMP = -10;
    private final long defaultOffset;
    private final TreeMap<String, Long> given;
    private final long timestamp;
    /** For {@link #committed(StartingOffsets)}: where a partition without a committed offset starts. */
    private final long fallback;

    private StartingOffsets(long defaultOffset, TreeMap<String, Long> given) {
        this(defaultOffset, given, -1, KafkaPartitionSplit.EARLIEST);
    }

    private StartingOffsets(long defaultOffset, TreeMap<String, Long> given, long timestamp, long fallback) {
        this.defaultOffset = defaultOffset;
        this.given = given;
        this.timestamp = timestamp;
        this.fallback = fallback;
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
        return committed(earliest());
    }

    /**
     * From the offsets committed by the source's consumer group ({@code groupId}); a partition without one starts
     * where {@code reset} says: {@link #earliest()} or {@link #latest()}.
     */
    public static StartingOffsets committed(StartingOffsets reset) {
        if (reset.defaultOffset != KafkaPartitionSplit.EARLIEST && reset.defaultOffset != KafkaPartitionSplit.LATEST || !reset.given.isEmpty()) {
            throw new IllegalArgumentException("Kafka source: the reset of startingOffsets committed(...) must be earliest() or latest()");
        }
        return new StartingOffsets(KafkaPartitionSplit.COMMITTED, new TreeMap<>(), -1, reset.defaultOffset);
    }

    /**
     * From the first record of each partition whose timestamp is at or after {@code epochMillis}; a partition with no
     * such record starts at its end (only records written later are read).
     */
    public static StartingOffsets timestamp(long epochMillis) {
        if (epochMillis < 0) {
            throw new IllegalArgumentException("Kafka source: startingOffsets timestamp must not be negative, was " + epochMillis);
        }
        return new StartingOffsets(TIMESTAMP, new TreeMap<>(), epochMillis, KafkaPartitionSplit.EARLIEST);
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
        return new StartingOffsets(otherwise.defaultOffset, all, otherwise.timestamp, otherwise.fallback);
    }

    /** For {@link #TIMESTAMP}: the timestamp to start at. */
    long timestamp() {
        return timestamp;
    }

    /** For {@link KafkaPartitionSplit#COMMITTED}: where a partition without a committed offset starts. */
    long fallback() {
        return fallback;
    }

    /** The start of one partition: an offset, one of the split's markers, or {@link #TIMESTAMP}. */
    long of(TopicPartition partition) {
        return given.getOrDefault(partition.toString(), defaultOffset);
    }

    boolean needsGroup() {
        return defaultOffset == KafkaPartitionSplit.COMMITTED;
    }
}
