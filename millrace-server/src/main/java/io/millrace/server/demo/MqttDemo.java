package io.millrace.server.demo;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import io.millrace.api.DataStream;
import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.metrics.JobMetrics;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.api.source.BadRecordPolicy;
import io.millrace.api.time.Clock;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.mqtt.MqttMessage;
import io.millrace.connector.mqtt.MqttServer;
import io.millrace.connector.mqtt.MqttSink;
import io.millrace.connector.mqtt.MqttSource;
import io.millrace.connector.mqtt.sparkplug.SparkplugB;
import io.millrace.connector.mqtt.sparkplug.SparkplugMessage;
import io.millrace.connector.mqtt.sparkplug.SparkplugMetrics;
import io.millrace.format.FormatException;
import io.millrace.format.JsonRowFormat;
import io.millrace.sim.FactoryEvent;
import io.millrace.sim.FactorySimulator;
import io.millrace.sim.Sensor;
import io.millrace.sim.SensorReading;
import io.millrace.sim.SimulatorConfig;
import io.millrace.sim.SpindleEvent;
import io.millrace.sim.SpindleState;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/**
 * The demo through MQTT: a {@link MosquittoBroker} of the demo's own, a feed job that publishes the simulator's events
 * to it at QoS 1, and the demo's pipeline reading them through an {@link MqttSource} (QoS 1, acknowledged after
 * checkpoints, every second). Two payloads:
 *
 * <ul>
 *   <li><b>JSON</b>: one message per event to {@code factory/<machine>/<sensor>} ({@code temperature},
 *       {@code vibration}, {@code pressure}) as {@code {"machine":"M001","value":71.3,"at":<epoch ms>,"seq":17}}, and
 *       spindle changes to {@code factory/<machine>/spindle} as {@code {"machine":"M001","state":"RUNNING",...}}.
 *   <li><b>Sparkplug B</b>: the edge node {@code gateway} of group {@code factory}, one device per machine: an NBIRTH
 *       first, a DBIRTH for each machine before its first data (the metrics {@code Temperature}, {@code Vibration},
 *       {@code Pressure} as Double and {@code Spindle} as String, with aliases), then one DDATA per event naming its
 *       metric by alias only, with the event time as timestamp. The pipeline resolves the aliases with
 *       {@link SparkplugMetrics}.
 * </ul>
 *
 * The source's session is created before the feed starts (a persistent session subscribed at QoS 1), so the broker
 * queues every message for it whenever the job connects.
 */
public final class MqttDemo implements DemoTransport {
    static final String CLIENT_PREFIX = "millrace-demo";
    static final String GROUP = "factory";
    static final String EDGE_NODE = "gateway";
    static final Duration CHECKPOINT_INTERVAL = Duration.ofSeconds(1);

    /** A sensor reading's message. */
    static final RowType READING = RowType.builder()
            .field("machine", FieldType.STRING).field("value", FieldType.DOUBLE).field("at", FieldType.TIMESTAMP).field("seq", FieldType.BIGINT)
            .build();
    /** A spindle change's message. */
    static final RowType SPINDLE = RowType.builder()
            .field("machine", FieldType.STRING).field("state", FieldType.STRING).field("at", FieldType.TIMESTAMP).field("seq", FieldType.BIGINT)
            .build();
    /** The Sparkplug metrics of a machine, in alias order within the machine. */
    static final String[] METRICS = {"Temperature", "Vibration", "Pressure", "Spindle"};

    private final MosquittoBroker broker;
    private final boolean sparkplug;

    private MqttDemo(MosquittoBroker broker, boolean sparkplug) {
        this.broker = broker;
        this.sparkplug = sparkplug;
    }

    /**
     * Starts the broker ({@code mosquittoBinary}, or Debian's mosquitto when null) and creates the source's session.
     *
     * @throws BrokerMissingException when the broker is not installed, naming the package to install
     * @throws IllegalStateException when it does not start, with its log
     */
    public static MqttDemo open(boolean sparkplug, String mosquittoBinary, PrintStream out) throws Exception {
        java.nio.file.Path binary = MosquittoBroker.binary(mosquittoBinary);
        out.println("MQTT: starting Mosquitto (" + binary + ") ...");
        MosquittoBroker broker = MosquittoBroker.start(binary);
        try {
            MqttDemo demo = new MqttDemo(broker, sparkplug);
            demo.prepareSession();
            out.println("MQTT: broker at 127.0.0.1:" + broker.port() + ", " + (sparkplug ? "Sparkplug B to " : "JSON to ") + demo.filter()
                    + " at QoS 1");
            return demo;
        } catch (RuntimeException e) {
            broker.close();
            throw e;
        }
    }

    public int port() {
        return broker.port();
    }

    String filter() {
        return sparkplug ? SparkplugB.NAMESPACE + "/" + GROUP + "/#" : "factory/#";
    }

    MqttServer server() {
        return MqttServer.of("127.0.0.1", broker.port()).withReconnectBackoff(Duration.ofMillis(100), Duration.ofSeconds(2));
    }

    /**
     * Creates the persistent session the source's client resumes, subscribed at QoS 1, so that the broker queues
     * what the feed publishes before the job's first connection.
     */
    private void prepareSession() {
        Mqtt5BlockingClient c = MqttClient.builder().useMqttVersion5().identifier(CLIENT_PREFIX + "-0")
                .serverHost("127.0.0.1").serverPort(broker.port()).buildBlocking();
        c.connectWith().cleanStart(false).sessionExpiryInterval(86_400).send();
        c.subscribeWith().topicFilter(filter()).qos(MqttQos.AT_LEAST_ONCE).send();
        c.disconnect();
    }

    @Override
    public String description() {
        return sparkplug ? "through MQTT (Sparkplug B)" : "through MQTT";
    }

    /** Checkpoints every second into the broker's temporary directory: the source acknowledges messages after them. */
    @Override
    public PipelineConfig pipelineConfig(int parallelism, Clock clock) {
        PipelineConfig config = DemoTransport.super.pipelineConfig(parallelism, clock);
        config.checkpoints().directory(broker.directory().resolve("checkpoints")).interval(CHECKPOINT_INTERVAL);
        return config;
    }

    @Override
    public FactoryDemo.Input input(SimulatorConfig sim) {
        if (sparkplug) {
            MqttSource<SparkplugMessage> source = MqttSource.builder(SparkplugB.messages())
                    .server(server()).topicFilters(filter()).qos(1).clientIdPrefix(CLIENT_PREFIX).build();
            WatermarkStrategy<SparkplugMessage> watermarks = WatermarkStrategy.<SparkplugMessage>boundedOutOfOrderness(sim.maxOutOfOrderness())
                    .withTimestampAssigner((m, arrival) -> m.timestamp() >= 0 ? m.timestamp() : arrival)
                    .withIdleness(Duration.ofSeconds(5));
            return pipeline -> pipeline.fromSource(source, watermarks, BadRecordPolicy.FAIL, "factory-floor").uid("factory-floor")
                    .keyBy(SparkplugMessage::edgeNodeKey)
                    .process(new SparkplugMetrics()).name("sparkplug-metrics").uid("sparkplug-metrics")
                    .flatMap(MqttDemo::sparkplugEvent).name("mqtt-events");
        }
        MqttSource<FactoryEvent> source = MqttSource.builder(MqttDemo::jsonEvent)
                .server(server()).topicFilters(filter()).qos(1).clientIdPrefix(CLIENT_PREFIX).build();
        WatermarkStrategy<FactoryEvent> watermarks = WatermarkStrategy.<FactoryEvent>boundedOutOfOrderness(sim.maxOutOfOrderness())
                .withTimestampAssigner((e, arrival) -> e.eventTime())
                .withIdleness(Duration.ofSeconds(5));
        return pipeline -> pipeline.fromSource(source, watermarks, BadRecordPolicy.FAIL, "factory-floor").uid("factory-floor");
    }

    /** The feed: the simulator's events published at QoS 1 by one client, in the simulator's order. */
    @Override
    public JobHandle startFeed(SimulatorConfig sim, Clock clock) {
        FactorySimulator simulator = new FactorySimulator(sim);
        Pipeline feed = Pipeline.create(new PipelineConfig().parallelism(1).clock(clock));
        DataStream<Outgoing> messages = sparkplug
                ? feed.fromSource(simulator, simulator.watermarkStrategy(), "simulator").process(new SparkplugFeed()).name("sparkplug")
                : feed.fromSource(simulator, simulator.watermarkStrategy(), "simulator").map(MqttDemo::json).name("json");
        MqttSink<Outgoing> sink = MqttSink.builder((Outgoing o) -> o.payload())
                .server(server()).topic(Outgoing::topic).qos(1).clientIdPrefix(CLIENT_PREFIX + "-feed").build();
        messages.sinkTo(sink).name("to-mqtt");
        return feed.executeAsync("factory-feed");
    }

    /** Once the pipeline's source has read as many messages as the feed published. */
    @Override
    public boolean drained(JobResult fed, JobMetrics demo, long millisSinceFeedEnded) {
        return demo.sum("factory-floor", om -> om.recordsOut()) >= published(fed);
    }

    private static long published(JobResult fed) {
        return fed.metrics().sum("to-mqtt", om -> om.recordsIn());
    }

    @Override
    public void printSummary(PrintStream out, JobResult fed, JobResult demo) {
        long read = demo.metrics().sum("factory-floor", om -> om.recordsOut());
        out.printf(Locale.ROOT, "  mqtt            %,d messages published to 127.0.0.1:%d (%s, QoS 1), %,d read back, %,d checkpoints%n",
                fed == null ? -1 : published(fed), broker.port(), sparkplug ? "Sparkplug B" : "JSON", read,
                demo.metrics().checkpoints().stream().filter(c -> c.completed()).count());
        out.printf(Locale.ROOT, "                  (the job was stopped once it had read them all: windows still open then are not emitted)%n");
    }

    @Override
    public void close() {
        broker.close();
    }

    /** The mosquitto binary is not there; the message names the package to install. */
    public static final class BrokerMissingException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        BrokerMissingException(String message) {
            super(message);
        }
    }

    /** A message to publish. */
    record Outgoing(String topic, byte[] payload) implements java.io.Serializable {}

    static Outgoing json(FactoryEvent e) {
        if (e instanceof SensorReading r) {
            byte[] payload = JsonRowFormat.of(READING).encode(Row.of(READING, r.machineId(), r.value(), r.eventTime(), r.seq()));
            return new Outgoing("factory/" + r.machineId() + "/" + r.sensor().name().toLowerCase(Locale.ROOT), payload);
        }
        SpindleEvent s = (SpindleEvent) e;
        byte[] payload = JsonRowFormat.of(SPINDLE).encode(Row.of(SPINDLE, s.machineId(), s.state().name(), s.eventTime(), s.seq()));
        return new Outgoing("factory/" + s.machineId() + "/spindle", payload);
    }

    /** Decodes {@link #json}'s messages; anything else is a {@link FormatException} naming the topic. */
    static FactoryEvent jsonEvent(MqttMessage m) {
        String[] levels = m.topic().split("/", -1);
        if (levels.length != 3 || !levels[0].equals("factory")) {
            throw new FormatException("topic '" + m.topic() + "' is not factory/<machine>/<sensor>");
        }
        if (levels[2].equals("spindle")) {
            Row row = JsonRowFormat.of(SPINDLE).decode(m.payload());
            SpindleState state;
            try {
                state = SpindleState.valueOf(row.getString("state"));
            } catch (IllegalArgumentException e) {
                throw new FormatException("topic '" + m.topic() + "': unknown spindle state '" + row.getString("state") + "'");
            }
            return new SpindleEvent(row.getString("machine"), state, row.getTimestamp("at"), row.getLong("seq"));
        }
        Sensor sensor;
        try {
            sensor = Sensor.valueOf(levels[2].toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new FormatException("topic '" + m.topic() + "': unknown sensor '" + levels[2] + "'");
        }
        Row row = JsonRowFormat.of(READING).decode(m.payload());
        return new SensorReading(row.getString("machine"), sensor, row.getDouble("value"), row.getTimestamp("at"), row.getLong("seq"));
    }

    /** Turns a resolved Sparkplug metric row of a machine back into its factory event ({@code seq} -1); others are left out. */
    static void sparkplugEvent(Row row, io.millrace.api.functions.Collector<FactoryEvent> out) {
        if (!row.getString("message_type").equals("DDATA") || row.getBoolean("is_null") || row.getBoolean("stale")
                || row.isNullAt(row.type().index("metric")) || row.isNullAt(row.type().index("at"))) {
            return;
        }
        String machine = row.getString("device");
        long at = row.getTimestamp("at");
        switch (row.getString("metric")) {
            case "Temperature" -> out.collect(new SensorReading(machine, Sensor.TEMPERATURE, row.getDouble("double_value"), at, -1));
            case "Vibration" -> out.collect(new SensorReading(machine, Sensor.VIBRATION, row.getDouble("double_value"), at, -1));
            case "Pressure" -> out.collect(new SensorReading(machine, Sensor.PRESSURE, row.getDouble("double_value"), at, -1));
            case "Spindle" -> out.collect(new SpindleEvent(machine, SpindleState.valueOf(row.getString("string_value")), at, -1));
            default -> { }
        }
    }

    /**
     * The Sparkplug B messages of the edge node: NBIRTH before anything, DBIRTH before a machine's first data, then a
     * DDATA per event. Runs with parallelism 1 in the feed job, which has no checkpoints: a restarted feed would be
     * born again.
     */
    static final class SparkplugFeed extends io.millrace.api.functions.ProcessFunction<FactoryEvent, Outgoing> {
        private transient java.util.Map<String, Long> aliasBase;
        private transient long seq;

        @Override
        public void processElement(FactoryEvent e, Context ctx, io.millrace.api.functions.Collector<Outgoing> out) {
            if (aliasBase == null) {
                aliasBase = new java.util.HashMap<>();
                out.collect(message(new SparkplugMessage(GROUP, SparkplugMessage.MessageType.NBIRTH, EDGE_NODE, null, e.eventTime(), nextSeq(),
                        java.util.List.of(new SparkplugMessage.Metric("Node Control/Rebirth", -1, e.eventTime(), 11, false, Boolean.FALSE)))));
            }
            Long base = aliasBase.get(e.machineId());
            if (base == null) {
                base = (long) (aliasBase.size() + 1) * METRICS.length;
                aliasBase.put(e.machineId(), base);
                java.util.List<SparkplugMessage.Metric> metrics = new java.util.ArrayList<>();
                for (int i = 0; i < METRICS.length; i++) {
                    metrics.add(new SparkplugMessage.Metric(METRICS[i], base + i, e.eventTime(), i == 3 ? 12 : 10, true, null));
                }
                out.collect(message(new SparkplugMessage(GROUP, SparkplugMessage.MessageType.DBIRTH, EDGE_NODE, e.machineId(), e.eventTime(),
                        nextSeq(), metrics)));
            }
            SparkplugMessage.Metric metric;
            if (e instanceof SensorReading r) {
                int i = r.sensor() == Sensor.TEMPERATURE ? 0 : r.sensor() == Sensor.VIBRATION ? 1 : 2;
                metric = new SparkplugMessage.Metric(null, base + i, r.eventTime(), 0, false, r.value());
            } else {
                SpindleEvent s = (SpindleEvent) e;
                metric = new SparkplugMessage.Metric(null, base + 3, s.eventTime(), 0, false, s.state().name());
            }
            out.collect(message(new SparkplugMessage(GROUP, SparkplugMessage.MessageType.DDATA, EDGE_NODE, e.machineId(), e.eventTime(),
                    nextSeq(), java.util.List.of(metric))));
        }

        private long nextSeq() {
            long s = seq;
            seq = (seq + 1) % 256;
            return s;
        }

        private static Outgoing message(SparkplugMessage m) {
            return new Outgoing(m.topic(), SparkplugB.encode(m));
        }
    }
}
