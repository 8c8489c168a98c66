package io.millrace.connector.kafka;

import io.millrace.api.source.SplitEnumerator;
import io.millrace.api.source.SplitEnumeratorContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Finds the partitions of a {@link KafkaSource}'s topics (listed, or matching a pattern) with an admin client and
 * hands each to one reader. The partitions found at the first start begin at the source's starting offsets; any found
 * later (partitions added to a topic, a new topic matching the pattern) begin at the earliest offset, so that nothing
 * written to them is missed. Its state is the set of partitions it has handed out, so a restored job hands out only
 * partitions it had not.
 *
 * <p>Owner of a partition: {@code (hash(topic) + partition) mod parallelism}, which spreads each topic's partitions
 * evenly and is the same in every run.
 *
 * <p>With a topic pattern, a topic that was read and is gone at a discovery (deleted) has its partitions taken away
 * from the readers and forgotten: they no longer hold back event time nor appear in checkpoints, and a topic of the
 * same name created later is read from its start. Partitions of a deleted listed topic stay with their readers
 * (which then read nothing from them), as Kafka cannot delete one partition of a topic.
 */
final class KafkaSplitEnumerator implements SplitEnumerator<KafkaPartitionSplit> {
    static final int STATE_VERSION = 1;
    private final SplitEnumeratorContext<KafkaPartitionSplit> context;
    private final List<String> topics;
    private final Pattern pattern;
    private final StartingOffsets startingOffsets;
    private final boolean bounded;
    private final long discoveryMillis;
    private final Map<String, Object> adminProperties;
    private final String bootstrap;
    private final String groupId;
    private final TreeSet<String> handedOut = new TreeSet<>();
    private final boolean restored;
    private Admin admin;

    KafkaSplitEnumerator(SplitEnumeratorContext<KafkaPartitionSplit> context, List<String> topics, Pattern pattern,
            StartingOffsets startingOffsets, boolean bounded, long discoveryMillis, Map<String, Object> adminProperties,
            String groupId, byte[] restoredState) throws IOException {
        this.context = context;
        this.topics = topics;
        this.pattern = pattern;
        this.startingOffsets = startingOffsets;
        this.bounded = bounded;
        this.discoveryMillis = discoveryMillis;
        this.adminProperties = adminProperties;
        this.bootstrap = String.valueOf(adminProperties.get("bootstrap.servers"));
        this.groupId = groupId;
        this.restored = restoredState != null;
        if (restoredState != null) {
            handedOut.addAll(decode(restoredState));
        }
    }

    @Override
    public void start() throws Exception {
        admin = Admin.create(adminProperties);
        List<TopicPartition> found = partitions(true);
        assign(found, !restored);
        if (bounded) {
            for (int i = 0; i < context.parallelism(); i++) {
                context.noMoreSplits(i);
            }
        }
    }

    /**
     * Looks for new partitions. Brokers that do not answer (a restart, a network split) are not an error here: the
     * discovery is logged and tried again at the next interval, while the readers wait for the brokers themselves.
     */
    @Override
    public void discover() throws Exception {
        if (bounded) {
            return;
        }
        List<TopicPartition> found;
        try {
            found = partitions(false);
        } catch (IllegalStateException e) {
            org.slf4j.LoggerFactory.getLogger(KafkaSplitEnumerator.class).warn("source '{}': partition discovery failed, trying again in {} ms: {}",
                    context.sourceName(), discoveryMillis, e.getMessage());
            return;
        }
        assign(found, false);
        if (pattern != null) {
            removeGone(found);
        }
    }

    /**
     * Takes away the partitions handed out that a discovery no longer finds: their topic was deleted. The removal
     * goes to every subtask, as a split restored at another parallelism may be read by another subtask than its
     * owner (a reader ignores ids it does not hold).
     */
    private void removeGone(List<TopicPartition> found) {
        java.util.Set<String> present = new java.util.HashSet<>();
        for (TopicPartition tp : found) {
            present.add(tp.toString());
        }
        List<String> gone = new ArrayList<>();
        for (String id : handedOut) {
            if (!present.contains(id)) {
                gone.add(id);
            }
        }
        if (gone.isEmpty()) {
            return;
        }
        org.slf4j.LoggerFactory.getLogger(KafkaSplitEnumerator.class).info("source '{}': topics deleted, partitions {} taken away from the readers",
                context.sourceName(), gone);
        gone.forEach(handedOut::remove);
        for (int i = 0; i < context.parallelism(); i++) {
            context.removeSplits(i, gone);
        }
    }

    @Override
    public long discoveryIntervalMillis() {
        return bounded ? 0 : discoveryMillis;
    }

    @Override
    public int stateVersion() {
        return STATE_VERSION;
    }

    @Override
    public byte[] snapshotState(long checkpointId) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(handedOut.size());
            for (String id : handedOut) {
                out.writeUTF(id);
            }
        }
        return bytes.toByteArray();
    }

    static List<String> decode(byte[] state) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(state))) {
            int n = in.readInt();
            List<String> ids = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                ids.add(in.readUTF());
            }
            return ids;
        }
    }

    @Override
    public void close() {
        if (admin != null) {
            admin.close();
        }
    }

    private void assign(List<TopicPartition> found, boolean initial) throws Exception {
        List<TopicPartition> fresh = new ArrayList<>();
        for (TopicPartition tp : found) {
            if (!handedOut.contains(tp.toString())) {
                fresh.add(tp);
            }
        }
        if (fresh.isEmpty()) {
            return;
        }
        Map<TopicPartition, Long> starts = initial ? startsOf(fresh) : Map.of();
        long stop = bounded ? KafkaPartitionSplit.LATEST : KafkaPartitionSplit.UNBOUNDED;
        Map<Integer, List<KafkaPartitionSplit>> byOwner = new LinkedHashMap<>();
        for (TopicPartition tp : fresh) {
            long start = starts.getOrDefault(tp, KafkaPartitionSplit.EARLIEST);
            byOwner.computeIfAbsent(owner(tp), k -> new ArrayList<>()).add(new KafkaPartitionSplit(tp.topic(), tp.partition(), start, stop));
            handedOut.add(tp.toString());
        }
        byOwner.forEach(context::assignSplits);
    }

    int owner(TopicPartition tp) {
        int h = 0;
        String t = tp.topic();
        for (int i = 0; i < t.length(); i++) {
            h = 31 * h + t.charAt(i);
        }
        return Math.floorMod(h * 31 + tp.partition(), context.parallelism());
    }

    /** The starting offset (or marker) of each partition on a fresh start. */
    private Map<TopicPartition, Long> startsOf(List<TopicPartition> partitions) throws Exception {
        Map<TopicPartition, Long> starts = new HashMap<>();
        List<TopicPartition> byTimestamp = new ArrayList<>();
        List<TopicPartition> byGroup = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            long s = startingOffsets.of(tp);
            if (s == StartingOffsets.TIMESTAMP) {
                byTimestamp.add(tp);
            } else if (s == KafkaPartitionSplit.COMMITTED) {
                byGroup.add(tp);
            } else {
                starts.put(tp, s);
            }
        }
        if (!byGroup.isEmpty()) {
            Map<TopicPartition, OffsetAndMetadata> committed = await(admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata(),
                    "reading the committed offsets of group.id '" + groupId + "'");
            for (TopicPartition tp : byGroup) {
                OffsetAndMetadata o = committed.get(tp);
                starts.put(tp, o == null ? startingOffsets.fallback() : o.offset());
            }
        }
        if (!byTimestamp.isEmpty()) {
            Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
            byTimestamp.forEach(tp -> specs.put(tp, OffsetSpec.forTimestamp(startingOffsets.timestamp())));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> found = await(admin.listOffsets(specs).all(),
                    "finding the offsets of timestamp " + startingOffsets.timestamp());
            for (TopicPartition tp : byTimestamp) {
                long offset = found.get(tp).offset();
                starts.put(tp, offset < 0 ? KafkaPartitionSplit.LATEST : offset);
            }
        }
        return starts;
    }

    /** The partitions of the source's topics, by topic and partition; {@code first}: a listed topic must exist. */
    private List<TopicPartition> partitions(boolean first) throws Exception {
        Collection<String> names;
        if (pattern != null) {
            names = new TreeSet<>();
            for (String t : await(admin.listTopics().names(), "listing topics for pattern '" + pattern + "'")) {
                if (pattern.matcher(t).matches()) {
                    names.add(t);
                }
            }
        } else {
            names = topics;
        }
        List<TopicPartition> found = new ArrayList<>();
        for (String topic : names) {
            TopicDescription d;
            try {
                d = admin.describeTopics(List.of(topic)).allTopicNames().get(60, TimeUnit.SECONDS).get(topic);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    if (!first || pattern != null) {
                        continue; // deleted since it was listed: a pattern's discovery takes its partitions away
                    }
                    throw new IllegalArgumentException("Kafka source: topic '" + topic + "' does not exist on " + bootstrap, e.getCause());
                }
                throw new IllegalStateException("Kafka source: could not describe topic '" + topic + "' on bootstrap.servers="
                        + bootstrap + ": " + e.getCause(), e.getCause());
            } catch (TimeoutException e) {
                throw new IllegalStateException("Kafka source: no answer from bootstrap.servers=" + bootstrap + " within 60 s describing topic '"
                        + topic + "'", e);
            }
            d.partitions().stream().map(p -> new TopicPartition(topic, p.partition()))
                    .sorted(java.util.Comparator.comparingInt(TopicPartition::partition)).forEach(found::add);
        }
        return found;
    }

    private <V> V await(KafkaFuture<V> future, String what) throws Exception {
        try {
            return future.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Kafka source: " + what + " on bootstrap.servers=" + bootstrap + " failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka source: no answer from bootstrap.servers=" + bootstrap + " within 60 s " + what, e);
        }
    }
}
