package io.millrace.connector.mqtt;

import io.millrace.api.source.BadRecord;
import io.millrace.api.source.InputStatus;
import io.millrace.api.source.ReaderOutput;
import io.millrace.api.source.SourceReader;
import io.millrace.api.source.SourceReaderContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the sessions assigned to one source subtask. Called on the subtask's thread only; the client library's
 * threads only put received messages into a session's inbox ({@link MqttSession}) and wake the subtask.
 *
 * <p>Acknowledgements: a QoS 1 or 2 message emitted by {@link #pollNext} joins the list of the next checkpoint; when
 * {@link #snapshotState(long)} is called for checkpoint {@code n} the list is set aside under {@code n}, and when
 * checkpoint {@code n} completes every list up to {@code n} is acknowledged, in the order the messages came. A
 * message the job has emitted but whose checkpoint has not completed stays unacknowledged at the broker, which sends
 * it again to the session's next connection.
 */
final class MqttSourceReader<T> implements SourceReader<T, MqttSessionSplit> {
    private static final Logger LOG = LoggerFactory.getLogger(MqttSourceReader.class);
    private static final int BATCH = 512;

    private final MqttSource<T> source;
    private final MqttMessageDeserializer<T> deserializer;
    private final String clientIdPrefix;
    private final SourceReaderContext context;
    private final List<MqttSession> sessions = new ArrayList<>();
    private final Map<String, ReaderOutput.SplitOutput<T>> outputs = new HashMap<>();
    private ReaderOutput<T> output;
    private List<Runnable> unsealed = new ArrayList<>();
    private final TreeMap<Long, List<Runnable>> sealed = new TreeMap<>();
    private long waitingForAck;
    private boolean warnedFullWindow;

    MqttSourceReader(MqttSource<T> source, MqttMessageDeserializer<T> deserializer, String clientIdPrefix, SourceReaderContext context) {
        this.source = source;
        this.deserializer = deserializer;
        this.clientIdPrefix = clientIdPrefix;
        this.context = context;
    }

    @Override
    public void addSplits(List<MqttSessionSplit> splits) {
        for (MqttSessionSplit s : splits) {
            for (MqttSession existing : sessions) {
                if (existing.split.session() == s.session()) {
                    throw new IllegalStateException("MQTT session " + s.clientId(clientIdPrefix) + " was assigned twice to one reader");
                }
            }
            sessions.add(new MqttSession(s, s.clientId(clientIdPrefix), source, context));
        }
    }

    @Override
    public void noMoreSplits() {}

    @Override
    public InputStatus pollNext(ReaderOutput<T> out) {
        if (output != out) {
            output = out;
            outputs.clear();
        }
        long now = context.clock().millis();
        for (MqttSession s : sessions) {
            s.maintain(now);
        }
        int emitted = 0;
        boolean more = false;
        for (MqttSession s : sessions) {
            Incoming in;
            while (emitted < BATCH && (in = s.take()) != null) {
                emit(s, in);
                emitted++;
            }
            more |= s.hasBuffered();
        }
        return more ? InputStatus.MORE_AVAILABLE : InputStatus.NOTHING_AVAILABLE;
    }

    /** Until the next reconnect attempt when a session waits for one; else the sessions wake the subtask themselves. */
    @Override
    public long nanosUntilAvailable() {
        long now = context.clock().millis();
        long wait = Long.MAX_VALUE;
        for (MqttSession s : sessions) {
            long at = s.nextAttemptMillis();
            if (at != Long.MAX_VALUE) {
                wait = Math.min(wait, Math.max(1, at - now) * 1_000_000L);
            }
        }
        return wait;
    }

    private void emit(MqttSession session, Incoming in) {
        MqttMessage m = in.message();
        T value;
        try {
            value = deserializer.deserialize(m);
            if (value == null) {
                throw new IllegalArgumentException("the deserializer returned null");
            }
        } catch (Exception e) {
            output.reportBadRecord(new BadRecord(m.payloadUnsafe(), "topic " + m.topic() + ", client " + m.clientId(),
                    e.getMessage() == null ? e.toString() : e.getMessage()));
            acknowledgeLater(in);
            return;
        }
        String splitId = source.watermarkPerTopic ? m.topic() : session.split.splitId();
        ReaderOutput.SplitOutput<T> o = outputs.get(splitId);
        if (o == null) {
            o = output.split(splitId);
            outputs.put(splitId, o);
        }
        o.collect(value, m.arrivalMillis());
        acknowledgeLater(in);
    }

    private void acknowledgeLater(Incoming in) {
        if (in.acknowledge() == null) {
            return; // QoS 0
        }
        if (source.acknowledgement == MqttSource.Acknowledgement.ON_RECEIPT) {
            acknowledge(in.acknowledge());
            return;
        }
        unsealed.add(in.acknowledge());
        waitingForAck++;
        if (!warnedFullWindow && waitingForAck >= source.server.receiveMaximum()) {
            warnedFullWindow = true;
            LOG.warn("MQTT source '{}': {} messages wait for a checkpoint to complete before they are acknowledged; the broker sends no more"
                    + " until then (is checkpointing on? see acknowledgement ON_RECEIPT otherwise)", context.sourceName(), waitingForAck);
        }
    }

    private void acknowledge(Runnable ack) {
        try {
            ack.run();
        } catch (RuntimeException e) {
            // the message's connection is gone: the broker sends it again on the next one
            LOG.debug("acknowledging a message of a lost connection: {}", e.toString());
        }
    }

    @Override
    public List<MqttSessionSplit> snapshotState() {
        List<MqttSessionSplit> splits = new ArrayList<>(sessions.size());
        for (MqttSession s : sessions) {
            splits.add(s.split);
        }
        return splits;
    }

    /** Sets the messages emitted since the previous checkpoint aside, to acknowledge when this one completes. */
    @Override
    public List<MqttSessionSplit> snapshotState(long checkpointId) {
        if (!unsealed.isEmpty()) {
            sealed.put(checkpointId, unsealed);
            unsealed = new ArrayList<>();
        }
        return snapshotState();
    }

    /** Acknowledges, in the order received, every message emitted before the barrier of {@code checkpointId}. */
    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        var done = sealed.headMap(checkpointId, true);
        if (LOG.isDebugEnabled()) {
            LOG.debug("MQTT source '{}': checkpoint {} completed, acknowledging {} messages", context.sourceName(), checkpointId,
                    done.values().stream().mapToInt(List::size).sum());
        }
        for (List<Runnable> acks : done.values()) {
            for (Runnable ack : acks) {
                acknowledge(ack);
            }
            waitingForAck -= acks.size();
        }
        done.clear();
        if (waitingForAck < source.server.receiveMaximum()) {
            warnedFullWindow = false;
        }
    }

    @Override
    public void close() {
        for (MqttSession s : sessions) {
            s.close();
        }
    }
}
