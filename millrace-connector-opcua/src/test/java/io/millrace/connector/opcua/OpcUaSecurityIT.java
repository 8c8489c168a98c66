package io.millrace.connector.opcua;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.opcua.server.TestOpcUaServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Basic256Sha256 with certificates, user names, and what the source says when the server or the client is not trusted. */
class OpcUaSecurityIT {
    @TempDir
    static Path dir;
    static TestOpcUaServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = TestOpcUaServer.start(dir.resolve("server"));
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    private static OpcUaSource.Builder secure() {
        return OpcUaSource.builder()
                .endpoint(server.endpoint())
                .securityPolicy(OpcUaSecurityPolicy.BASIC256SHA256)
                .samplingInterval(Duration.ofMillis(10))
                .publishingInterval(Duration.ofMillis(20));
    }

    @Test
    void basic256Sha256_withAKeyStore_aTrustDirectory_andAUserName_deliversValues() throws Exception {
        String count = server.nodeId("Line1/Count");
        server.set("Line1/Count", 7, Instant.parse("2026-03-01T00:00:00Z"));
        // tag::secure[]
        OpcUaSource source = OpcUaSource.builder()
                .endpoint(server.endpoint())                             // opc.tcp://host:port/path
                .securityPolicy(OpcUaSecurityPolicy.BASIC256SHA256)      // signed and encrypted by default
                .clientCertificate(ClientCertificate.pkcs12(server.clientKeyStore(), TestOpcUaServer.KEY_STORE_PASSWORD, null))
                .trustedServerCertificates(server.trustDirectory())     // the server's certificate is in here
                .username(TestOpcUaServer.USER, TestOpcUaServer.PASSWORD)
                .nodes(count)
                .build();
        // end::secure[]
        try (RunningJob job = RunningJob.start(source)) {
            job.awaitValue(count, 7);
            server.set("Line1/Count", 8, Instant.parse("2026-03-01T00:00:01Z"));
            job.awaitValue(count, 8);
            assertThat(job.changes(count)).extracting(OpcUaDataChange::value).containsExactly(7, 8);
        }
    }

    @Test
    void basic256Sha256_withAUserName_subscribesAgainAfterAServerRestart() throws Exception {
        String count = server.nodeId("Line1/Count");
        Instant t = Instant.parse("2026-03-05T00:00:00Z");
        server.set("Line1/Count", 70, t);
        OpcUaSource source = secure()
                .clientCertificate(ClientCertificate.pkcs12(server.clientKeyStore(), TestOpcUaServer.KEY_STORE_PASSWORD, null))
                .trustedServerCertificates(server.trustDirectory())
                .username(TestOpcUaServer.USER, TestOpcUaServer.PASSWORD)
                .keepAliveInterval(Duration.ofSeconds(1)).requestTimeout(Duration.ofSeconds(2))
                .nodes(count).build();
        try (RunningJob job = RunningJob.start(source)) {
            job.awaitValue(count, 70);
            server.stop();
            server.set("Line1/Count", 71, t.plusSeconds(1));
            server.start();
            job.awaitValue(count, 71);
            assertThat(job.gaps()).hasSize(1);
            assertThat(job.changes(count)).extracting(OpcUaDataChange::value).containsExactly(70, 71);
        }
    }

    @Test
    void basic256Sha256_signOnly_withPemFiles_andAnonymous_deliversValues() throws Exception {
        String mode = server.nodeId("Line1/Mode");
        server.set("Line1/Mode", "pem", Instant.parse("2026-03-02T00:00:00Z"));
        OpcUaSource source = secure().securityMode(OpcUaSecurityMode.SIGN)
                .clientCertificate(ClientCertificate.pem(server.clientCertificatePem(), server.clientKeyPem()))
                .trustedServerCertificates(server.trustDirectory())
                .nodes(mode).build();
        try (RunningJob job = RunningJob.start(source)) {
            job.awaitValue(mode, "pem");
        }
    }

    @Test
    void aWrongPassword_failsTheJobNamingTheEndpointAndTheIdentity() {
        OpcUaSource source = secure()
                .clientCertificate(ClientCertificate.pkcs12(server.clientKeyStore(), TestOpcUaServer.KEY_STORE_PASSWORD, "client"))
                .trustedServerCertificates(server.trustDirectory())
                .username(TestOpcUaServer.USER, "wrong").nodes(server.nodeId("Line1/Count")).build();
        assertThatThrownBy(() -> runToFailure(source))
                .hasStackTraceContaining("cannot connect to " + server.endpoint() + " (security policy BASIC256SHA256/SIGN_AND_ENCRYPT, identity user 'operator')")
                .hasStackTraceContaining("Bad_UserAccessDenied: the server refused user 'operator' (check option 'username': the user name and password)");
    }

    @Test
    void anUntrustedServerCertificate_isRefusedAndSetAside_andTrustedOnceMovedIntoTheTrustDirectory() throws Exception {
        Path trust = Files.createDirectories(dir.resolve("empty-trust"));
        String running = server.nodeId("Line1/Running");
        server.set("Line1/Running", true, Instant.parse("2026-03-03T00:00:00Z"));
        OpcUaSource source = secure()
                .clientCertificate(ClientCertificate.pem(server.clientCertificatePem(), server.clientKeyPem()))
                .trustedServerCertificates(trust).nodes(running).build();
        assertThatThrownBy(() -> runToFailure(source))
                .hasStackTraceContaining("identity anonymous): the server certificate ")
                .hasStackTraceContaining("CN=Millrace test server (SHA-1 ")
                .hasStackTraceContaining("is not trusted")
                .hasStackTraceContaining("move it into " + trust + " to trust it");
        List<Path> rejected;
        try (Stream<Path> files = Files.list(trust.resolve("rejected"))) {
            rejected = files.toList();
        }
        assertThat(rejected).hasSize(1);
        Files.move(rejected.get(0), trust.resolve("server.der"));

        try (RunningJob job = RunningJob.start(source)) {
            job.awaitValue(running, true);
        }
    }

    @Test
    void acceptingAnyServerCertificate_connectsWithoutATrustDirectory() throws Exception {
        String pressure = server.nodeId("Line1/Pressure");
        server.set("Line1/Pressure", 3.5, Instant.parse("2026-03-04T00:00:00Z"));
        OpcUaSource source = secure()
                .clientCertificate(ClientCertificate.pem(server.clientCertificatePem(), server.clientKeyPem()))
                .acceptAnyServerCertificateInsecurely().nodes(pressure).build();
        try (RunningJob job = RunningJob.start(source)) {
            job.awaitValue(pressure, 3.5);
        }
    }

    private static void runToFailure(OpcUaSource source) {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
        p.fromSource(source, WatermarkStrategy.<OpcUaRecord>noWatermarks(), "plc").sinkTo(new CollectSink<>());
        p.execute("must fail");
        throw new AssertionError("the job did not fail");
    }
}
