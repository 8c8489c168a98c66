package io.millrace.connector.mqtt;

import io.millrace.api.source.Boundedness;
import io.millrace.api.source.Source;
import io.millrace.api.source.SourceReader;
import io.millrace.api.source.SourceReaderContext;
import io.millrace.api.source.VersionedCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Reads MQTT topics through persistent sessions. Each session ({@link MqttSessionSplit}) is one client with a stable
 * client id (the client id prefix, a dash and the session number) that connects without a clean start, so the broker
 * keeps its subscriptions and queues QoS 1 and 2 messages for it while the job is down. By default a message of QoS 1
 * or 2 is acknowledged to the broker only when the checkpoint that covers it has completed: after a crash the broker
 * delivers again everything the restored job has not seen. See {@code docs/mqtt.md} for the guarantee and its cost.
 *
 * <pre>{@code
 * MqttSource<Row> readings = MqttSource.builder(MqttMessageDeserializer.rows(JsonRowFormat.of(READING)))
 *         .server(MqttServer.of("broker", 1883)).topicFilters("plant/+/temperature").qos(1).clientIdPrefix("plant-7").build();
 * }</pre>
 */
public final class MqttSource<T> implements Source<T, MqttSessionSplit> {
    private static final Pattern CLIENT_ID = Pattern.compile("[A-Za-z0-9_.:-]{1,200}");
    private final MqttMessageDeserializer<T> deserializer;
    final MqttServer server;
    final List<String> filters;
    final Qos qos;
    final String sharedGroup;
    final int sessions;
    final String clientIdPrefix;
    final Acknowledgement acknowledgement;
    final boolean watermarkPerTopic;
    final int maxBuffered;

    /** When the source acknowledges a QoS 1 or 2 message to the broker. */
    public enum Acknowledgement {
        /**
         * Once the checkpoint that covers the message has completed (the default): nothing is lost in a crash. Needs
         * checkpointing: without checkpoints nothing is ever acknowledged and the broker stops sending once the
         * receive maximum of messages is waiting.
         */
        AFTER_CHECKPOINT,
        /** As soon as the source has handed the message on: a crash loses what was received but not yet checkpointed. */
        ON_RECEIPT
    }

    private MqttSource(Builder<T> b) {
        this.deserializer = b.deserializer;
        this.server = b.server;
        this.filters = List.copyOf(b.filters);
        this.qos = b.qos;
        this.sharedGroup = b.sharedGroup;
        this.sessions = b.sessions;
        this.clientIdPrefix = b.clientIdPrefix;
        this.acknowledgement = b.acknowledgement;
        this.watermarkPerTopic = b.watermarkPerTopic;
        this.maxBuffered = b.maxBuffered;
    }

    public static <T> Builder<T> builder(MqttMessageDeserializer<T> deserializer) {
        return new Builder<>(deserializer);
    }

    @Override
    public Boundedness boundedness() {
        return Boundedness.CONTINUOUS_UNBOUNDED;
    }

    /**
     * The sessions, fixed at the first start of the job: with a shared subscription, {@code sessions} (default: the
     * parallelism) sessions that each subscribe to every filter in the share group; without, the filters spread over
     * as many sessions as there are subtasks (at most one session per filter), so that no message is read twice.
     */
    @Override
    public List<MqttSessionSplit> createSplits(int parallelism) {
        List<MqttSessionSplit> splits = new ArrayList<>();
        if (sharedGroup != null) {
            List<String> shared = new ArrayList<>();
            for (String f : filters) {
                shared.add("$share/" + sharedGroup + "/" + f);
            }
            int n = sessions > 0 ? sessions : parallelism;
            for (int k = 0; k < n; k++) {
                splits.add(new MqttSessionSplit(k, shared));
            }
        } else {
            int n = Math.min(sessions > 0 ? sessions : parallelism, filters.size());
            for (int k = 0; k < n; k++) {
                List<String> mine = new ArrayList<>();
                for (int i = k; i < filters.size(); i += n) {
                    mine.add(filters.get(i));
                }
                splits.add(new MqttSessionSplit(k, mine));
            }
        }
        return splits;
    }

    @Override
    public VersionedCodec<MqttSessionSplit> splitCodec() {
        return new MqttSessionSplit.Codec();
    }

    @Override
    public SourceReader<T, MqttSessionSplit> createReader(SourceReaderContext context) {
        String prefix = clientIdPrefix != null ? clientIdPrefix : context.sourceName().replaceAll("[^A-Za-z0-9_.:-]", "_");
        return new MqttSourceReader<>(this, deserializer, prefix, context);
    }

    /** Options of an {@link MqttSource}; {@code server} and at least one topic filter are required. */
    public static final class Builder<T> {
        private final MqttMessageDeserializer<T> deserializer;
        private MqttServer server;
        private final List<String> filters = new ArrayList<>();
        private Qos qos = Qos.AT_LEAST_ONCE;
        private String sharedGroup;
        private int sessions;
        private String clientIdPrefix;
        private Acknowledgement acknowledgement = Acknowledgement.AFTER_CHECKPOINT;
        private boolean watermarkPerTopic;
        private int maxBuffered = 10_000;

        private Builder(MqttMessageDeserializer<T> deserializer) {
            this.deserializer = Objects.requireNonNull(deserializer, "deserializer");
        }

        /** The broker and how to talk to it. */
        public Builder<T> server(MqttServer value) {
            this.server = Objects.requireNonNull(value, "server");
            return this;
        }

        /**
         * Topic filters, wildcards allowed ({@code +} one level, {@code #} the rest): {@code plant/+/temperature},
         * {@code plant/#}. Without a shared subscription, each filter is read by one session; filters that overlap
         * in different sessions deliver a message once per session.
         */
        public Builder<T> topicFilters(String... values) {
            for (String f : values) {
                checkFilter(f);
                filters.add(f);
            }
            return this;
        }

        /** The QoS of the subscriptions, 0, 1 or 2 (default 1); the broker delivers each message at the lower of this and the publisher's. */
        public Builder<T> qos(int level) {
            this.qos = Qos.of(level, "qos");
            return this;
        }

        /**
         * Subscribes every session to {@code $share/<group>/<filter>}: the broker hands each message to one of the
         * sessions of the group, so the topics spread over the source's subtasks. Without it, the filters are spread.
         */
        public Builder<T> sharedSubscription(String group) {
            if (group == null || group.isEmpty() || group.contains("/") || group.contains("+") || group.contains("#")) {
                throw new IllegalArgumentException("MQTT source: option 'sharedSubscription' must be a non-empty group name without '/', '+' or '#', was "
                        + (group == null ? "null" : "'" + group + "'"));
            }
            this.sharedGroup = group;
            return this;
        }

        /**
         * The number of sessions, fixed at the first start of the job (default: the parallelism then; without a shared
         * subscription at most the number of filters). More sessions than subtasks lets the job grow later.
         */
        public Builder<T> sessions(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("MQTT source: option 'sessions' must be at least 1, was " + n);
            }
            this.sessions = n;
            return this;
        }

        /**
         * The start of every session's client id: {@code <prefix>-0}, {@code <prefix>-1}... It must stay the same from
         * run to run (the broker keeps the sessions by client id) and be unique to this source among all clients of
         * the broker. Letters, digits, {@code _ . : -}. Default: the source's name.
         */
        public Builder<T> clientIdPrefix(String value) {
            if (value == null || !CLIENT_ID.matcher(value).matches()) {
                throw new IllegalArgumentException("MQTT source: option 'clientIdPrefix' must be 1 to 200 letters, digits, '_', '.', ':' or '-', was "
                        + (value == null ? "null" : "'" + value + "'"));
            }
            this.clientIdPrefix = value;
            return this;
        }

        /** When QoS 1 and 2 messages are acknowledged; default {@link Acknowledgement#AFTER_CHECKPOINT}. */
        public Builder<T> acknowledgement(Acknowledgement value) {
            this.acknowledgement = Objects.requireNonNull(value, "acknowledgement");
            return this;
        }

        /**
         * Generates watermarks per topic (a device, a machine) instead of per session, so that with
         * {@code withIdleness} a silent topic does not hold back event time and a late one does not hold back the rest.
         * Every topic seen is tracked for the life of the job.
         */
        public Builder<T> watermarkPerTopic() {
            this.watermarkPerTopic = true;
            return this;
        }

        /**
         * How many received messages a session holds before the job takes them (default 10,000). QoS 1 and 2 messages
         * are bounded by the receive maximum anyway; QoS 0 messages beyond this are dropped, counted and logged.
         */
        public Builder<T> maxBufferedMessages(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("MQTT source: option 'maxBufferedMessages' must be at least 1, was " + n);
            }
            this.maxBuffered = n;
            return this;
        }

        public MqttSource<T> build() {
            if (server == null) {
                throw new IllegalArgumentException("MQTT source: option 'server' is required");
            }
            if (filters.isEmpty()) {
                throw new IllegalArgumentException("MQTT source: option 'topicFilters' is required: name at least one topic filter");
            }
            return new MqttSource<>(this);
        }
    }

    /** Checks MQTT's rules for a topic filter, naming the problem. */
    static void checkFilter(String f) {
        if (f == null || f.isEmpty()) {
            throw new IllegalArgumentException("MQTT source: option 'topicFilters' has an empty topic filter");
        }
        if (f.startsWith("$share/")) {
            throw new IllegalArgumentException("MQTT source: topic filter '" + f + "': give the group with option 'sharedSubscription' and the plain filter here");
        }
        String[] levels = f.split("/", -1);
        for (int i = 0; i < levels.length; i++) {
            String level = levels[i];
            if (level.contains("#") && (!level.equals("#") || i != levels.length - 1)) {
                throw new IllegalArgumentException("MQTT source: topic filter '" + f + "': '#' must be a whole level and the last one");
            }
            if (level.contains("+") && !level.equals("+")) {
                throw new IllegalArgumentException("MQTT source: topic filter '" + f + "': '+' must be a whole level");
            }
        }
    }
}
