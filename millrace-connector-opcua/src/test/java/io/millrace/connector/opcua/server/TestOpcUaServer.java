package io.millrace.connector.opcua.server;

import static org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig.USER_TOKEN_POLICY_ANONYMOUS;
import static org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig.USER_TOKEN_POLICY_USERNAME;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.sdk.server.EndpointConfig;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig;
import org.eclipse.milo.opcua.sdk.server.identity.AnonymousIdentityValidator;
import org.eclipse.milo.opcua.sdk.server.identity.CompositeValidator;
import org.eclipse.milo.opcua.sdk.server.identity.UsernameIdentityValidator;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.security.CertificateStore;
import org.eclipse.milo.opcua.stack.core.security.DefaultApplicationGroup;
import org.eclipse.milo.opcua.stack.core.security.DefaultCertificateManager;
import org.eclipse.milo.opcua.stack.core.security.DefaultServerCertificateValidator;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateQuarantine;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateStore;
import org.eclipse.milo.opcua.stack.core.security.MemoryTrustListManager;
import org.eclipse.milo.opcua.stack.core.security.RsaSha256CertificateFactory;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.transport.TransportProfile;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.util.SelfSignedCertificateBuilder;
import org.eclipse.milo.opcua.stack.core.util.SelfSignedCertificateGenerator;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransportConfig;

/**
 * A real OPC UA server from Milo's server SDK on 127.0.0.1 and an ephemeral port, for the tests: the folder
 * {@code Plant} with variables of several types (see {@link #VARIABLES}) whose values the test sets, endpoints with
 * security policies None and Basic256Sha256 (SignAndEncrypt), anonymous and user-name identities. Its certificate and a
 * client certificate it trusts are generated, self-signed, in the given directory when it is created: the client's as
 * a PKCS#12 key store and as PEM files, the server's in a trust directory for the client. {@link #stop} and
 * {@link #start} restart it on the same port, as a new server that knows nothing of earlier sessions and
 * subscriptions; the variables keep the values last set.
 */
public final class TestOpcUaServer implements AutoCloseable {
    /** A variable: its path below the folder {@code Plant}, its data type and display name. */
    public record Variable(String path, NodeId dataType, String displayName) {}

    public static final List<Variable> VARIABLES = List.of(
            new Variable("Line1/Temperature", NodeIds.Double, "Line 1 temperature"),
            new Variable("Line1/Pressure", NodeIds.Double, "Line 1 pressure"),
            new Variable("Line1/Count", NodeIds.Int32, "Line 1 parts"),
            new Variable("Line1/Running", NodeIds.Boolean, "Line 1 running"),
            new Variable("Line1/Mode", NodeIds.String, "Line 1 mode"),
            new Variable("Line1/Press/Force", NodeIds.Double, "Press force"),
            new Variable("Other/Ambient", NodeIds.Double, "Ambient temperature"),
            new Variable("Other/Limits", NodeIds.Range, "Alarm limits"));

    /** The source time of every initial value. */
    public static final Instant INITIAL_TIME = Instant.parse("2026-01-01T00:00:00Z");
    public static final String USER = "operator";
    public static final String PASSWORD = "s3cret";
    public static final String KEY_STORE_PASSWORD = "changeit";
    public static final String CLIENT_APPLICATION_URI = "urn:millrace:test:client";
    private static final String SERVER_APPLICATION_URI = "urn:millrace:test:server";

    private final int port;
    private final Path dir;
    private final KeyPair serverKeys;
    private final X509Certificate serverCertificate;
    private final X509Certificate clientCertificate;
    private final Map<String, DataValue> values = new LinkedHashMap<>();
    private OpcUaServer server;
    private PlantNamespace namespace;
    private int namespaceIndex;

    private TestOpcUaServer(Path dir) throws Exception {
        this.dir = dir;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            this.port = s.getLocalPort();
        }
        serverKeys = SelfSignedCertificateGenerator.generateRsaKeyPair(2048);
        serverCertificate = new SelfSignedCertificateBuilder(serverKeys).setCommonName("Millrace test server")
                .setOrganization("Millrace").setApplicationUri(SERVER_APPLICATION_URI).addDnsName("localhost").addIpAddress("127.0.0.1").build();
        KeyPair clientKeys = SelfSignedCertificateGenerator.generateRsaKeyPair(2048);
        clientCertificate = new SelfSignedCertificateBuilder(clientKeys).setCommonName("Millrace test client")
                .setOrganization("Millrace").setApplicationUri(CLIENT_APPLICATION_URI).addDnsName("localhost").addIpAddress("127.0.0.1").build();
        writeClientFiles(clientKeys);
        Files.createDirectories(trustDirectory());
        Files.write(trustDirectory().resolve("test-server.der"), serverCertificate.getEncoded());
        for (Variable v : VARIABLES) {
            values.put(v.path(), new DataValue(initialValue(v), StatusCode.GOOD, new DateTime(INITIAL_TIME), new DateTime(INITIAL_TIME)));
        }
    }

    /** Creates the certificates in {@code dir} and starts the server. */
    public static TestOpcUaServer start(Path dir) throws Exception {
        TestOpcUaServer s = new TestOpcUaServer(dir);
        s.start();
        return s;
    }

    private static Variant initialValue(Variable v) {
        if (v.dataType().equals(NodeIds.Double)) {
            return new Variant(0.0);
        } else if (v.dataType().equals(NodeIds.Int32)) {
            return new Variant(0);
        } else if (v.dataType().equals(NodeIds.Boolean)) {
            return new Variant(false);
        } else if (v.dataType().equals(NodeIds.Range)) {
            return new Variant(org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject.encode(
                    org.eclipse.milo.opcua.stack.core.encoding.DefaultEncodingContext.INSTANCE,
                    new org.eclipse.milo.opcua.stack.core.types.structured.Range(0.0, 100.0)));
        }
        return new Variant("idle");
    }

    /** Starts (again) on the same port: a new server instance with the values last set. */
    public synchronized void start() throws Exception {
        startWithout(Set.of());
    }

    /** Starts (again) on the same port, without the variables at {@code omitted} (as if removed from the PLC). */
    public synchronized void startWithout(Set<String> omitted) throws Exception {
        if (server != null) {
            throw new IllegalStateException("the test server is running");
        }
        MemoryTrustListManager trust = new MemoryTrustListManager();
        trust.addTrustedCertificate(clientCertificate);
        MemoryCertificateQuarantine quarantine = new MemoryCertificateQuarantine();
        MemoryCertificateStore store = new MemoryCertificateStore();
        store.set(NodeIds.RsaSha256ApplicationCertificateType,
                new CertificateStore.Entry(serverKeys.getPrivate(), new X509Certificate[] {serverCertificate}));
        RsaSha256CertificateFactory factory = new RsaSha256CertificateFactory() {
            @Override
            protected X509Certificate[] createRsaSha256CertificateChain(KeyPair keyPair) {
                return new X509Certificate[] {serverCertificate};
            }
        };
        DefaultApplicationGroup group = DefaultApplicationGroup.createAndInitialize(trust, store, factory,
                new DefaultServerCertificateValidator(trust, quarantine));

        EndpointConfig.Builder base = EndpointConfig.newBuilder()
                .setTransportProfile(TransportProfile.TCP_UASC_UABINARY)
                .setBindAddress("127.0.0.1").setHostname("127.0.0.1").setBindPort(port).setPath("/plant")
                .setCertificate(serverCertificate)
                .addTokenPolicies(USER_TOKEN_POLICY_ANONYMOUS, USER_TOKEN_POLICY_USERNAME);
        Set<EndpointConfig> endpoints = new LinkedHashSet<>();
        endpoints.add(base.copy().setSecurityPolicy(SecurityPolicy.None).setSecurityMode(MessageSecurityMode.None).build());
        endpoints.add(base.copy().setSecurityPolicy(SecurityPolicy.Basic256Sha256).setSecurityMode(MessageSecurityMode.SignAndEncrypt).build());
        endpoints.add(base.copy().setSecurityPolicy(SecurityPolicy.Basic256Sha256).setSecurityMode(MessageSecurityMode.Sign).build());

        OpcUaServerConfig config = OpcUaServerConfig.builder()
                .setApplicationUri(SERVER_APPLICATION_URI)
                .setApplicationName(LocalizedText.english("Millrace test server"))
                .setProductUri("urn:millrace:test")
                .setEndpoints(endpoints)
                .setCertificateManager(new DefaultCertificateManager(quarantine, group))
                .setIdentityValidator(new CompositeValidator(AnonymousIdentityValidator.INSTANCE,
                        new UsernameIdentityValidator(c -> USER.equals(c.getUsername()) && PASSWORD.equals(c.getPassword()))))
                .build();
        OpcUaServer s = new OpcUaServer(config, profile -> new OpcTcpServerTransport(OpcTcpServerTransportConfig.newBuilder().build()));
        Map<String, DataValue> present = new LinkedHashMap<>(values);
        present.keySet().removeAll(omitted);
        PlantNamespace ns = new PlantNamespace(s, present);
        ns.startup();
        s.startup().get(10, TimeUnit.SECONDS);
        server = s;
        namespace = ns;
        namespaceIndex = ns.getNamespaceIndex().intValue();
    }

    /** Stops the server: connections are closed, sessions and subscriptions forgotten. */
    public synchronized void stop() throws InterruptedException, java.util.concurrent.ExecutionException, java.util.concurrent.TimeoutException {
        if (server == null) {
            return;
        }
        namespace.shutdown();
        server.shutdown().get(10, TimeUnit.SECONDS);
        server = null;
        namespace = null;
    }

    public synchronized boolean isRunning() {
        return server != null;
    }

    /** Sets a good value with a source time; the server time is set by the server when it samples it. */
    public void set(String path, Object value, Instant sourceTime) {
        put(path, new DataValue(new Variant(value), StatusCode.GOOD, new DateTime(sourceTime), DateTime.now()));
    }

    /** Sets a value with the given status code (e.g. {@code Bad_SensorFailure}) and source time. */
    public void setWithStatus(String path, Object value, long statusCode, Instant sourceTime) {
        put(path, new DataValue(new Variant(value), new StatusCode(statusCode), new DateTime(sourceTime), DateTime.now()));
    }

    /** Sets a good value that has no source time. */
    public void setWithoutSourceTime(String path, Object value) {
        put(path, new DataValue(new Variant(value), StatusCode.GOOD, null, DateTime.now()));
    }

    private synchronized void put(String path, DataValue v) {
        if (!values.containsKey(path)) {
            throw new IllegalArgumentException("no variable " + path + " in the test namespace");
        }
        values.put(path, v);
        if (namespace != null) {
            namespace.set(path, v);
        }
    }

    /** How often the running server has read a variable: its subscriptions sample through reads. */
    public synchronized long reads(String path) {
        return namespace == null ? 0 : namespace.reads(path);
    }

    /** {@code opc.tcp://127.0.0.1:<port>/plant}. */
    public String endpoint() {
        return "opc.tcp://127.0.0.1:" + port + "/plant";
    }

    /** The node id of a variable or folder below {@code Plant}, in text form: {@code ns=2;s=Plant/Line1/Count}. */
    public synchronized String nodeId(String path) {
        return "ns=" + namespaceIndex() + ";s=Plant/" + path;
    }

    private int namespaceIndex() {
        return namespaceIndex;
    }

    public Path trustDirectory() {
        return dir.resolve("trusted-servers");
    }

    public Path clientKeyStore() {
        return dir.resolve("client.p12");
    }

    public Path clientCertificatePem() {
        return dir.resolve("client-cert.pem");
    }

    public Path clientKeyPem() {
        return dir.resolve("client-key.pem");
    }

    private void writeClientFiles(KeyPair keys) throws Exception {
        Files.createDirectories(dir);
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry("client", keys.getPrivate(), KEY_STORE_PASSWORD.toCharArray(), new X509Certificate[] {clientCertificate});
        try (OutputStream out = Files.newOutputStream(clientKeyStore())) {
            ks.store(out, KEY_STORE_PASSWORD.toCharArray());
        }
        writePem(clientCertificatePem(), "CERTIFICATE", clientCertificate.getEncoded());
        writePem(clientKeyPem(), "PRIVATE KEY", keys.getPrivate().getEncoded());
    }

    private static void writePem(Path file, String type, byte[] der) throws IOException {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        Files.writeString(file, "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n");
    }

    @Override
    public void close() {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the test server did not stop: " + e, e);
        }
    }
}
