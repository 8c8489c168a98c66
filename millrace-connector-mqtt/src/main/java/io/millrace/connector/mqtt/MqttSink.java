package io.millrace.connector.mqtt;

import io.millrace.api.sink.Committer;
import io.millrace.api.sink.CommittingSinkWriter;
import io.millrace.api.sink.SinkContext;
import io.millrace.api.sink.TwoPhaseCommitSink;
import io.millrace.format.BytesEncoder;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Publishes records to MQTT, at least once. MQTT has no transactions: a message, once published, is delivered to
 * subscribers, whatever becomes of the checkpoint. So each checkpoint barrier waits until the broker has
 * acknowledged every message published before it (QoS 1 and 2), and a job restored after a crash publishes again
 * what came after its checkpoint: subscribers may see a message twice. For consumers that drop repeats, give every
 * message a deterministic id ({@link Builder#messageId}): sent as an MQTT 5 user property, and the same each time the
 * same record is published again.
 *
 * <pre>{@code
 * MqttSink<Row> alarms = MqttSink.builder(JsonRowFormat.of(ALARM))
 *         .server(MqttServer.of("broker", 1883)).topic(row -> "plant/alarms/" + row.getString("machine")).qos(1).build();
 * }</pre>
 */
public final class MqttSink<T> implements TwoPhaseCommitSink<T, String> {
    private static final Pattern CLIENT_ID = Pattern.compile("[A-Za-z0-9_.:-]{1,200}");
    /** The default name of the user property that carries the message id. */
    public static final String MESSAGE_ID_PROPERTY = "message-id";

    final MqttServer server;
    final BytesEncoder<T> payload;
    final TopicSelector<T> topic;
    final Qos qos;
    final boolean retained;
    final MessageIdFunction<T> messageId;
    final String messageIdProperty;
    final String clientIdPrefix;
    final int maxInFlight;
    final Duration ackTimeout;

    /** Picks the topic of a record's message. Called on the sink subtask's thread. */
    @FunctionalInterface
    public interface TopicSelector<T> extends java.io.Serializable {
        String topic(T value);
    }

    /** Gives a record's message id: the same each time the same record is published (a key and its event time, say). */
    @FunctionalInterface
    public interface MessageIdFunction<T> extends java.io.Serializable {
        String id(T value, long timestamp);
    }

    private MqttSink(Builder<T> b) {
        this.server = b.server;
        this.payload = b.payload;
        this.topic = b.topic;
        this.qos = b.qos;
        this.retained = b.retained;
        this.messageId = b.messageId;
        this.messageIdProperty = b.messageIdProperty;
        this.clientIdPrefix = b.clientIdPrefix;
        this.maxInFlight = b.maxInFlight;
        this.ackTimeout = b.ackTimeout;
    }

    public static <T> Builder<T> builder(BytesEncoder<T> payload) {
        return new Builder<>(payload);
    }

    @Override
    public CommittingSinkWriter<T, String> createWriter(SinkContext context) throws Exception {
        String prefix = clientIdPrefix != null ? clientIdPrefix : context.sinkName().replaceAll("[^A-Za-z0-9_.:-]", "_");
        return new MqttSinkWriter<>(this, prefix + "-" + context.subtaskIndex(), context);
    }

    /** Nothing to commit: every message is published (and acknowledged) by the time its checkpoint completes. */
    @Override
    public Committer<String> createCommitter(SinkContext context) {
        return committables -> { };
    }

    /** Nothing lingers: a published message cannot be taken back. */
    @Override
    public void abortLingering(SinkContext context, long restoredCheckpointId) {}

    /** Options of an {@link MqttSink}; {@code server} and a topic are required. */
    public static final class Builder<T> {
        private final BytesEncoder<T> payload;
        private MqttServer server;
        private TopicSelector<T> topic;
        private Qos qos = Qos.AT_LEAST_ONCE;
        private boolean retained;
        private MessageIdFunction<T> messageId;
        private String messageIdProperty = MESSAGE_ID_PROPERTY;
        private String clientIdPrefix;
        private int maxInFlight = 1000;
        private Duration ackTimeout = Duration.ofSeconds(60);

        private Builder(BytesEncoder<T> payload) {
            this.payload = Objects.requireNonNull(payload, "payload");
        }

        public Builder<T> server(MqttServer value) {
            this.server = Objects.requireNonNull(value, "server");
            return this;
        }

        /** Every message to this topic (no wildcards). */
        public Builder<T> topic(String value) {
            checkTopic(value);
            this.topic = v -> value;
            return this;
        }

        /** The topic from the record ({@code row -> "plant/" + row.getString("machine") + "/alarm"}); checked per message. */
        public Builder<T> topic(TopicSelector<T> selector) {
            this.topic = Objects.requireNonNull(selector, "topic");
            return this;
        }

        /** 0, 1 or 2; default 1. With QoS 0 nothing is acknowledged and a lost connection loses messages. */
        public Builder<T> qos(int level) {
            this.qos = Qos.of(level, "qos");
            return this;
        }

        /** Publishes retained messages: the broker keeps the last one per topic for later subscribers. Default off. */
        public Builder<T> retained(boolean value) {
            this.retained = value;
            return this;
        }

        /**
         * A deterministic id per message, sent as the MQTT 5 user property {@code property} (default
         * {@value MqttSink#MESSAGE_ID_PROPERTY}); with MQTT 3.1.1, which has no properties, put the id in the payload
         * instead. Consumers that keep the ids they have seen drop the messages a restored job publishes again.
         */
        public Builder<T> messageId(MessageIdFunction<T> ids) {
            this.messageId = Objects.requireNonNull(ids, "messageId");
            return this;
        }

        public Builder<T> messageId(String property, MessageIdFunction<T> ids) {
            if (property == null || property.isEmpty()) {
                throw new IllegalArgumentException("MQTT sink: option 'messageId' needs a non-empty property name");
            }
            this.messageIdProperty = property;
            return messageId(ids);
        }

        /** The start of the client ids ({@code <prefix>-<subtask>}); unique among the broker's clients. Default: the sink's name. */
        public Builder<T> clientIdPrefix(String value) {
            if (value == null || !CLIENT_ID.matcher(value).matches()) {
                throw new IllegalArgumentException("MQTT sink: option 'clientIdPrefix' must be 1 to 200 letters, digits, '_', '.', ':' or '-', was "
                        + (value == null ? "null" : "'" + value + "'"));
            }
            this.clientIdPrefix = value;
            return this;
        }

        /** How many messages a subtask may have published and not yet acknowledged; a write waits beyond. Default 1,000. */
        public Builder<T> maxInFlight(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("MQTT sink: option 'maxInFlight' must be at least 1, was " + n);
            }
            this.maxInFlight = n;
            return this;
        }

        /** How long a write or a checkpoint waits for acknowledgements before the sink fails; default 60 s. */
        public Builder<T> ackTimeout(Duration value) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException("MQTT sink: option 'ackTimeout' must be a positive duration, was " + value);
            }
            this.ackTimeout = value;
            return this;
        }

        public MqttSink<T> build() {
            if (server == null) {
                throw new IllegalArgumentException("MQTT sink: option 'server' is required");
            }
            if (topic == null) {
                throw new IllegalArgumentException("MQTT sink: option 'topic' is required: a fixed topic or a function of the record");
            }
            if (messageId != null && server.version() != MqttVersion.MQTT_5) {
                throw new IllegalArgumentException("MQTT sink: option 'messageId' is sent as a user property, which MQTT 3.1.1 does not have;"
                        + " put the id in the payload instead");
            }
            return new MqttSink<>(this);
        }
    }

    /** A topic to publish to: not empty, no wildcards, no NUL. */
    static void checkTopic(String t) {
        if (t == null || t.isEmpty()) {
            throw new IllegalArgumentException("MQTT sink: the topic is empty");
        }
        if (t.indexOf('+') >= 0 || t.indexOf('#') >= 0 || t.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("MQTT sink: topic '" + t + "' has a wildcard ('+' or '#') or NUL; a message goes to one topic");
        }
    }
}
