package io.millrace.connector.opcua;

import static org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig.USER_TOKEN_POLICY_ANONYMOUS;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.Sink;
import io.millrace.api.sink.SinkContext;
import io.millrace.api.sink.SinkWriter;
import io.millrace.sim.FactoryEvent;
import io.millrace.sim.FactorySimulator;
import io.millrace.sim.Sensor;
import io.millrace.sim.SensorReading;
import io.millrace.sim.SimulatorConfig;
import io.millrace.sim.SpindleEvent;
import io.millrace.sim.SpindleState;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.sdk.core.AccessLevel;
import org.eclipse.milo.opcua.sdk.core.Reference;
import org.eclipse.milo.opcua.sdk.server.EndpointConfig;
import org.eclipse.milo.opcua.sdk.server.ManagedNamespaceWithLifecycle;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig;
import org.eclipse.milo.opcua.sdk.server.identity.AnonymousIdentityValidator;
import org.eclipse.milo.opcua.sdk.server.items.DataItem;
import org.eclipse.milo.opcua.sdk.server.items.MonitoredItem;
import org.eclipse.milo.opcua.sdk.server.nodes.UaFolderNode;
import org.eclipse.milo.opcua.sdk.server.nodes.UaVariableNode;
import org.eclipse.milo.opcua.sdk.server.util.SubscriptionModel;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.security.DefaultCertificateManager;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateQuarantine;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.transport.TransportProfile;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransportConfig;

/**
 * The factory simulator as an OPC UA server, for demos: an embedded Milo server (security policy None, anonymous)
 * whose folder {@code Factory} holds a folder per machine ({@code Factory/m03}) with the variables
 * {@code Temperature}, {@code Vibration}, {@code Pressure} (Double, in the sensors' units) and {@code Spindle}
 * (String, {@code RUNNING} or {@code STOPPED}), and a Millrace job that plays the simulator and writes each event
 * into its variable with the event time as source timestamp. Like a PLC's tags, a variable holds the latest value:
 * an event older than the variable's value (the simulator's late and out-of-order events) is not written. Until a
 * machine first reports a sensor, that variable is {@code Bad_WaitingForInitialData}, with the simulator's start time as
 * server timestamp (the floor's clock is the simulated one, so that the value holds back no event-time window).
 *
 * <p>Needs Milo's server SDK ({@code org.eclipse.milo:milo-sdk-server}) on the class path: the connector declares
 * it optional.
 *
 * <pre>{@code
 * try (FactoryFloorServer floor = FactoryFloorServer.start(simulatorConfig, "127.0.0.1", 4840)) {
 *     OpcUaSource source = OpcUaSource.builder().endpoint(floor.endpoint()).browse(floor.factoryFolder()).build();
 *     ...
 * }
 * }</pre>
 */
public final class FactoryFloorServer implements AutoCloseable {
    static final String NAMESPACE_URI = "urn:millrace:factory-simulator";
    private static final List<String> TAGS = List.of("Temperature", "Vibration", "Pressure", "Spindle");

    private final OpcUaServer server;
    private final FactoryNamespace namespace;
    private final JobHandle feed;
    private final String endpoint;

    private FactoryFloorServer(OpcUaServer server, FactoryNamespace namespace, JobHandle feed, String endpoint) {
        this.server = server;
        this.namespace = namespace;
        this.feed = feed;
        this.endpoint = endpoint;
    }

    /**
     * Starts the server on {@code host:port} (port 0: a free one) and the job that plays {@code config} into it. The
     * job runs at the simulator's speed until its duration is over or {@link #close}.
     */
    public static FactoryFloorServer start(SimulatorConfig config, String host, int port) throws Exception {
        int bindPort = port != 0 ? port : freePort(host);
        EndpointConfig endpointConfig = EndpointConfig.newBuilder()
                .setTransportProfile(TransportProfile.TCP_UASC_UABINARY)
                .setBindAddress(host).setHostname(host).setBindPort(bindPort).setPath("/factory")
                .setSecurityPolicy(SecurityPolicy.None).setSecurityMode(MessageSecurityMode.None)
                .addTokenPolicies(USER_TOKEN_POLICY_ANONYMOUS)
                .build();
        OpcUaServerConfig serverConfig = OpcUaServerConfig.builder()
                .setApplicationUri("urn:millrace:factory-simulator:server")
                .setApplicationName(LocalizedText.english("Millrace factory simulator"))
                .setProductUri("urn:millrace")
                .setEndpoints(Set.of(endpointConfig))
                .setCertificateManager(new DefaultCertificateManager(new MemoryCertificateQuarantine()))
                .setIdentityValidator(AnonymousIdentityValidator.INSTANCE)
                .build();
        OpcUaServer server = new OpcUaServer(serverConfig, profile -> new OpcTcpServerTransport(OpcTcpServerTransportConfig.newBuilder().build()));
        FactoryNamespace namespace = new FactoryNamespace(server, config);
        namespace.startup();
        server.startup().get(30, TimeUnit.SECONDS);

        FactorySimulator simulator = new FactorySimulator(config);
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1));
        pipeline.fromSource(simulator, simulator.watermarkStrategy(), "factory").sinkTo(new TagWriter(namespace));
        JobHandle feed = pipeline.executeAsync("factory-opcua-feed");
        return new FactoryFloorServer(server, namespace, feed, endpointConfig.getEndpointUrl());
    }

    private static int freePort(String host) throws java.io.IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName(host))) {
            return s.getLocalPort();
        }
    }

    /** The endpoint URL, {@code opc.tcp://host:port/factory}. */
    public String endpoint() {
        return endpoint;
    }

    /** The node id of the folder holding every machine's folder: browse it to read all tags. */
    public String factoryFolder() {
        return namespace.id("Factory").toParseableString();
    }

    /** The node id of a machine's tag ({@code Temperature}, {@code Vibration}, {@code Pressure}, {@code Spindle}). */
    public String nodeId(String machineId, String tag) {
        if (!TAGS.contains(tag)) {
            throw new IllegalArgumentException("no tag '" + tag + "'; the tags are " + TAGS);
        }
        return namespace.id("Factory/" + machineId + "/" + tag).toParseableString();
    }

    /**
     * Turns the changes an {@link OpcUaSource} reads from this server back into the simulator's events, so that a
     * pipeline written for the simulator runs unchanged on the OPC UA path: a good change of a sensor tag becomes a
     * {@link SensorReading}, of {@code Spindle} a {@link SpindleEvent}, with the change's event time (the simulator's)
     * and {@code seq} -1 (OPC UA does not carry it); other records (bad values, gaps) are dropped.
     */
    public static io.millrace.api.functions.FlatMapFunction<OpcUaRecord, FactoryEvent> toFactoryEvents() {
        return (record, out) -> {
            if (!(record instanceof OpcUaDataChange c) || !c.isGood() || c.value() == null) {
                return;
            }
            String path = c.nodeId().substring(c.nodeId().indexOf(";s=") + 3);
            String[] parts = path.split("/");
            if (parts.length != 3 || !parts[0].equals("Factory")) {
                return;
            }
            String machine = parts[1];
            switch (parts[2]) {
                case "Temperature" -> out.collect(new SensorReading(machine, Sensor.TEMPERATURE, (Double) c.value(), c.eventTime(), -1));
                case "Vibration" -> out.collect(new SensorReading(machine, Sensor.VIBRATION, (Double) c.value(), c.eventTime(), -1));
                case "Pressure" -> out.collect(new SensorReading(machine, Sensor.PRESSURE, (Double) c.value(), c.eventTime(), -1));
                case "Spindle" -> out.collect(new SpindleEvent(machine, SpindleState.valueOf((String) c.value()), c.eventTime(), -1));
                default -> { }
            }
        };
    }

    /** The job writing the simulator's events into the tags. */
    public JobHandle feed() {
        return feed;
    }

    /** Stops the feed job and the server. */
    @Override
    public void close() {
        feed.cancel();
        try {
            feed.await(Duration.ofSeconds(20));
            namespace.shutdown();
            server.shutdown().get(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the factory simulator's OPC UA server at " + endpoint + " did not shut down: " + e, e);
        }
    }

    private static String tag(Sensor s) {
        return switch (s) {
            case TEMPERATURE -> "Temperature";
            case VIBRATION -> "Vibration";
            case PRESSURE -> "Pressure";
        };
    }

    /** Writes each event into its tag; one writer, on the feed job's sink thread. */
    private static final class TagWriter implements Sink<FactoryEvent> {
        private static final long serialVersionUID = 1L;
        private final transient FactoryNamespace namespace;

        TagWriter(FactoryNamespace namespace) {
            this.namespace = namespace;
        }

        @Override
        public SinkWriter<FactoryEvent> createWriter(SinkContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(FactoryEvent event, long timestamp) {
                    if (event instanceof SensorReading r) {
                        namespace.write(r.machineId() + "/" + tag(r.sensor()), new Variant(r.value()), r.eventTime());
                    } else if (event instanceof SpindleEvent s) {
                        namespace.write(s.machineId() + "/Spindle", new Variant(s.state() == SpindleState.RUNNING ? "RUNNING" : "STOPPED"),
                                s.eventTime());
                    }
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }

    /** {@code Factory/<machine>/<tag>} below Objects. */
    private static final class FactoryNamespace extends ManagedNamespaceWithLifecycle {
        private final SubscriptionModel subscriptions;
        private final Map<String, UaVariableNode> tags = new LinkedHashMap<>();
        private final Map<String, Long> times = new java.util.concurrent.ConcurrentHashMap<>();

        FactoryNamespace(OpcUaServer server, SimulatorConfig config) {
            super(server, NAMESPACE_URI);
            subscriptions = new SubscriptionModel(server, this);
            getLifecycleManager().addLifecycle(subscriptions);
            getLifecycleManager().addStartupTask(() -> createNodes(config));
        }

        NodeId id(String path) {
            return newNodeId(path);
        }

        private void createNodes(SimulatorConfig config) {
            UaFolderNode factory = folder("Factory", "Factory");
            factory.addReference(new Reference(factory.getNodeId(), NodeIds.Organizes, NodeIds.ObjectsFolder.expanded(), false));
            // stamped with the simulated clock's start, not the wall clock: a source falls back to the server
            // timestamp for event time, and the simulated floor's time starts at the simulator's start time
            DataValue waiting = new DataValue(Variant.NULL_VALUE, new StatusCode(StatusCodes.Bad_WaitingForInitialData), null,
                    new DateTime(Instant.ofEpochMilli(config.startTime())));
            for (int m = 0; m < config.machines(); m++) {
                String machine = config.machineId(m);
                UaFolderNode folder = folder("Factory/" + machine, machine);
                factory.addOrganizes(folder);
                for (String tag : TAGS) {
                    UaVariableNode node = new UaVariableNode.UaVariableNodeBuilder(getNodeContext())
                            .setNodeId(newNodeId("Factory/" + machine + "/" + tag))
                            .setAccessLevel(AccessLevel.READ_ONLY)
                            .setUserAccessLevel(AccessLevel.READ_ONLY)
                            .setBrowseName(newQualifiedName(tag))
                            .setDisplayName(LocalizedText.english(machine + " " + tag.toLowerCase(java.util.Locale.ROOT)))
                            .setDataType(tag.equals("Spindle") ? NodeIds.String : NodeIds.Double)
                            .setTypeDefinition(NodeIds.BaseDataVariableType)
                            .build();
                    node.setValue(waiting);
                    getNodeManager().addNode(node);
                    folder.addOrganizes(node);
                    tags.put(machine + "/" + tag, node);
                }
            }
        }

        private UaFolderNode folder(String id, String name) {
            UaFolderNode f = new UaFolderNode(getNodeContext(), newNodeId(id), newQualifiedName(name), LocalizedText.english(name));
            getNodeManager().addNode(f);
            return f;
        }

        void write(String tag, Variant value, long eventTime) {
            UaVariableNode node = tags.get(tag);
            if (node == null) {
                return;
            }
            Long previous = times.get(tag);
            if (previous != null && previous > eventTime) {
                return;
            }
            times.put(tag, eventTime);
            node.setValue(new DataValue(value, StatusCode.GOOD, new DateTime(Instant.ofEpochMilli(eventTime)), DateTime.now()));
        }

        @Override
        public void onDataItemsCreated(List<DataItem> items) {
            subscriptions.onDataItemsCreated(items);
        }

        @Override
        public void onDataItemsModified(List<DataItem> items) {
            subscriptions.onDataItemsModified(items);
        }

        @Override
        public void onDataItemsDeleted(List<DataItem> items) {
            subscriptions.onDataItemsDeleted(items);
        }

        @Override
        public void onMonitoringModeChanged(List<MonitoredItem> items) {
            subscriptions.onMonitoringModeChanged(items);
        }
    }
}
