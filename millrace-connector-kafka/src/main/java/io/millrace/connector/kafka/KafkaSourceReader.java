package io.millrace.connector.kafka;

import io.millrace.api.source.BadRecord;
import io.millrace.api.source.InputStatus;
import io.millrace.api.source.ReaderOutput;
import io.millrace.api.source.SourceReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the partitions assigned to one source subtask with one consumer (manual assignment, no group membership).
 * Called on the subtask's thread only. {@link #addSplits} seeks each partition to its split's offset, or asks the
 * consumer to resolve the split's marker (earliest, latest, committed) without waiting for it; {@link #pollNext} does
 * not block and emits every record the consumer returns, so the consumer's position is always just after the last
 * record emitted (or reported bad), which is what a snapshot stores. A partition whose marker the consumer has not
 * resolved yet (its leader is not known yet, as just after the topic was created or a broker restarted) is
 * snapshotted with the marker itself: nothing of it has been read, so a restore resolves it again.
 */
final class KafkaSourceReader<T> implements SourceReader<T, KafkaPartitionSplit> {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final KafkaRecordDeserializer<T> deserializer;
    private final boolean bounded;
    private final Map<TopicPartition, Partition<T>> partitions = new LinkedHashMap<>();
    private ReaderOutput<T> output;
    private int unfinished;
    private boolean noMoreSplits;
    private final boolean commitOffsets;
    /** Offsets of each checkpoint not yet completed, to commit to the group when it completes. */
    private final java.util.TreeMap<Long, Map<TopicPartition, OffsetAndMetadata>> pendingCommits = new java.util.TreeMap<>();

    /** The reader's view of one split. */
    private static final class Partition<T> {
        final TopicPartition tp;
        final String id;
        KafkaPartitionSplit split;
        ReaderOutput.SplitOutput<T> out;
        boolean done;

        Partition(KafkaPartitionSplit split) {
            this.split = split;
            this.tp = split.topicPartition();
            this.id = split.splitId();
        }
    }

    KafkaSourceReader(Map<String, Object> properties, KafkaRecordDeserializer<T> deserializer, boolean bounded) {
        Map<String, Object> props = new LinkedHashMap<>(properties);
        props.put("enable.auto.commit", "false");
        this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.commitOffsets = props.get("group.id") != null;
        this.deserializer = deserializer;
        this.bounded = bounded;
    }

    @Override
    public void addSplits(List<KafkaPartitionSplit> splits) {
        List<Partition<T>> added = new ArrayList<>();
        for (KafkaPartitionSplit s : splits) {
            Partition<T> p = new Partition<>(s);
            if (partitions.putIfAbsent(p.tp, p) != null) {
                throw new IllegalStateException("Kafka partition " + p.id + " was assigned twice to one reader");
            }
            if (output != null) {
                p.out = output.split(p.id);
            }
            added.add(p);
        }
        consumer.assign(partitions.keySet());
        Set<TopicPartition> committed = new HashSet<>();
        List<TopicPartition> earliest = new ArrayList<>();
        List<TopicPartition> latest = new ArrayList<>();
        for (Partition<T> p : added) {
            long next = p.split.nextOffset();
            if (next >= 0) {
                consumer.seek(p.tp, next);
            } else if (next == KafkaPartitionSplit.EARLIEST) {
                earliest.add(p.tp);
            } else if (next == KafkaPartitionSplit.LATEST) {
                latest.add(p.tp);
            } else {
                committed.add(p.tp);
            }
        }
        if (!committed.isEmpty()) {
            Map<TopicPartition, OffsetAndMetadata> offsets = consumer.committed(committed);
            for (TopicPartition tp : committed) {
                OffsetAndMetadata o = offsets.get(tp);
                if (o == null) {
                    earliest.add(tp);
                } else {
                    consumer.seek(tp, o.offset());
                }
            }
        }
        if (!earliest.isEmpty()) {
            consumer.seekToBeginning(earliest);
        }
        if (!latest.isEmpty()) {
            consumer.seekToEnd(latest);
        }
        List<TopicPartition> unresolvedEnds = new ArrayList<>();
        for (Partition<T> p : added) {
            if (p.split.stopOffset() == KafkaPartitionSplit.LATEST) {
                unresolvedEnds.add(p.tp);
            }
        }
        if (!unresolvedEnds.isEmpty()) {
            Map<TopicPartition, Long> ends = consumer.endOffsets(unresolvedEnds);
            for (TopicPartition tp : unresolvedEnds) {
                Partition<T> p = partitions.get(tp);
                p.split = p.split.stoppingAt(ends.get(tp));
            }
        }
        for (Partition<T> p : added) {
            if (p.split.bounded()) {
                unfinished++;
            }
        }
    }

    @Override
    public void noMoreSplits() {
        noMoreSplits = true;
    }

    @Override
    public void removeSplits(List<String> splitIds) {
        Set<String> gone = new HashSet<>(splitIds);
        boolean removed = partitions.values().removeIf(p -> {
            if (gone.contains(p.id)) {
                if (p.split.bounded() && !p.done) {
                    unfinished--;
                }
                return true;
            }
            return false;
        });
        if (removed) {
            consumer.assign(partitions.keySet());
        }
    }

    /** Remembers the offsets of the checkpoint, to commit them to the consumer group when it completes. */
    @Override
    public List<KafkaPartitionSplit> snapshotState(long checkpointId) {
        List<KafkaPartitionSplit> snapshot = snapshotState();
        if (commitOffsets) {
            Map<TopicPartition, OffsetAndMetadata> offsets = new LinkedHashMap<>();
            for (KafkaPartitionSplit s : snapshot) {
                if (s.nextOffset() >= 0) {
                    offsets.put(s.topicPartition(), new OffsetAndMetadata(s.nextOffset()));
                }
            }
            pendingCommits.put(checkpointId, offsets);
        }
        return snapshot;
    }

    /**
     * Commits the offsets of the checkpoint to the consumer group, asynchronously: for monitoring (consumer lag);
     * a failed commit is logged and the next completed checkpoint commits again.
     */
    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        Map<TopicPartition, OffsetAndMetadata> offsets = pendingCommits.get(checkpointId);
        pendingCommits.headMap(checkpointId, true).clear();
        if (offsets != null && !offsets.isEmpty()) {
            consumer.commitAsync(offsets, (committed, e) -> {
                if (e != null) {
                    org.slf4j.LoggerFactory.getLogger(KafkaSourceReader.class).warn("committing offsets of checkpoint {} to group {} failed: {}",
                            checkpointId, consumer.groupMetadata().groupId(), e.toString());
                }
            });
        }
    }

    @Override
    public InputStatus pollNext(ReaderOutput<T> out) throws Exception {
        if (output != out) {
            output = out;
            for (Partition<T> p : partitions.values()) {
                p.out = out.split(p.id);
            }
        }
        if (bounded && noMoreSplits && unfinished == 0) {
            return InputStatus.END_OF_INPUT;
        }
        if (partitions.isEmpty()) {
            return InputStatus.NOTHING_AVAILABLE;
        }
        ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ZERO);
        for (TopicPartition tp : records.partitions()) {
            Partition<T> p = partitions.get(tp);
            for (ConsumerRecord<byte[], byte[]> r : records.records(tp)) {
                if (r.offset() >= p.split.stopOffset()) {
                    break;
                }
                emit(p, r);
            }
        }
        if (bounded) {
            checkEnds();
        }
        if (bounded && noMoreSplits && unfinished == 0) {
            return InputStatus.END_OF_INPUT;
        }
        return records.isEmpty() ? InputStatus.NOTHING_AVAILABLE : InputStatus.MORE_AVAILABLE;
    }

    private void emit(Partition<T> p, ConsumerRecord<byte[], byte[]> r) {
        T value;
        try {
            value = deserializer.deserialize(r);
        } catch (Exception e) {
            output.reportBadRecord(bad(r, e.getMessage() == null ? e.toString() : e.getMessage()));
            return;
        }
        if (value == null) {
            output.reportBadRecord(bad(r, "the deserializer returned null"));
            return;
        }
        p.out.collect(value, r.timestamp());
    }

    private void checkEnds() {
        for (Partition<T> p : partitions.values()) {
            if (!p.done && p.split.bounded() && positionNow(p) >= p.split.stopOffset()) {
                p.done = true;
                unfinished--;
                consumer.pause(List.of(p.tp));
                output.releaseSplit(p.id);
            }
        }
    }

    /**
     * The consumer's position in {@code p}, or -1 while it is still resolving the split's starting marker (then it
     * asks again in the background and the caller tries later). Does not wait.
     */
    private long positionNow(Partition<T> p) {
        try {
            return consumer.position(p.tp, Duration.ZERO);
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            return -1;
        }
    }

    static BadRecord bad(ConsumerRecord<byte[], byte[]> r, String reason) {
        return new BadRecord(r.value() == null ? new byte[0] : r.value(), "topic " + r.topic() + ", partition " + r.partition() + ", offset " + r.offset(), reason);
    }

    @Override
    public List<KafkaPartitionSplit> snapshotState() {
        List<KafkaPartitionSplit> snapshot = new ArrayList<>(partitions.size());
        for (Partition<T> p : partitions.values()) {
            if (p.done) {
                snapshot.add(p.split.at(p.split.stopOffset()));
            } else {
                long position = positionNow(p);
                snapshot.add(position < 0 ? p.split : p.split.at(Math.min(position, p.split.stopOffset())));
            }
        }
        return snapshot;
    }

    @Override
    public void close() {
        consumer.close();
    }
}
