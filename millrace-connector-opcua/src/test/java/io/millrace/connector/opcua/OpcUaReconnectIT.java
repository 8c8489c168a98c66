package io.millrace.connector.opcua;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.connector.opcua.server.TestOpcUaServer;
import io.millrace.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the source delivers across a restart of the server and of the job: it subscribes again, reports the gap, and
 * delivers each variable's value after it; changes in the gap that were overwritten are lost (at-most-once).
 */
class OpcUaReconnectIT {
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

    private static OpcUaSource source(String... nodes) {
        return OpcUaSource.builder().endpoint(server.endpoint()).nodes(nodes)
                .samplingInterval(Duration.ofMillis(10)).publishingInterval(Duration.ofMillis(20))
                .keepAliveInterval(Duration.ofSeconds(1)).requestTimeout(Duration.ofSeconds(2)).build();
    }

    @Test
    void serverRestart_sourceSubscribesAgain_reportsTheGap_andDeliversTheValuesAfterIt() throws Exception {
        Instant t0 = Instant.parse("2026-04-01T00:00:00Z");
        server.set("Line1/Count", 1, t0);
        server.set("Line1/Mode", "before", t0);
        String count = server.nodeId("Line1/Count");
        String mode = server.nodeId("Line1/Mode");
        try (RunningJob job = RunningJob.start(source(count, mode))) {
            job.awaitValue(count, 1);
            job.awaitValue(mode, "before");

            Instant stopped = Instant.now();
            server.stop();
            server.set("Line1/Count", 2, t0.plusSeconds(2));     // overwritten before anyone sees it: lost
            server.set("Line1/Count", 3, t0.plusSeconds(3));     // the value when the server is back: delivered
            server.start();
            Instant restarted = Instant.now();

            Await.until("a gap", Duration.ofSeconds(40), () -> {
                job.failIfEnded();
                return !job.gaps().isEmpty();
            });
            job.awaitValue(count, 3);
            server.set("Line1/Count", 4, t0.plusSeconds(4));
            job.awaitValue(count, 4);

            assertThat(job.changes(count)).extracting(OpcUaDataChange::value).containsExactly(1, 3, 4);
            assertThat(job.changes(count)).extracting(OpcUaDataChange::sourceTime)
                    .containsExactly(t0, t0.plusSeconds(3), t0.plusSeconds(4));
            assertThat(job.changes(mode)).extracting(OpcUaDataChange::value).containsExactly("before", "before");
            assertThat(job.gaps()).singleElement().satisfies(gap -> {
                assertThat(gap.endpoint()).isEqualTo(server.endpoint());
                assertThat(gap.nodes()).isEqualTo(2);
                assertThat(gap.nodesNotResubscribed()).isZero();
                assertThat(gap.gapsSoFar()).isEqualTo(1);
                assertThat(gap.from()).isBeforeOrEqualTo(stopped.plusMillis(1));
                assertThat(gap.to()).isAfterOrEqualTo(restarted.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
                assertThat(gap.millis()).isPositive();
                assertThat(gap.cause()).startsWith("Bad_");
                assertThat(gap.eventTime()).as("the last event time before it: the gap does not move the watermark").isEqualTo(t0.toEpochMilli());
            });
            List<OpcUaRecord> all = job.sink.results();
            int gapAt = all.indexOf(job.gaps().get(0));
            assertThat(all.subList(gapAt + 1, all.size())).as("the values after the gap come after it")
                    .contains(job.changes(count).get(1), job.changes(mode).get(1));
            assertThat(all.subList(0, gapAt)).doesNotContain(job.changes(count).get(1));
        }
    }

    @Test
    void aVariableGoneAfterTheRestart_isCountedAsNotResubscribed_theOthersFlowOn() throws Exception {
        Instant t0 = Instant.parse("2026-04-03T00:00:00Z");
        server.set("Line1/Temperature", 50.0, t0);
        server.set("Line1/Running", true, t0);
        String temperature = server.nodeId("Line1/Temperature");
        String running = server.nodeId("Line1/Running");
        try (RunningJob job = RunningJob.start(source(temperature, running))) {
            job.awaitValue(temperature, 50.0);
            job.awaitValue(running, true);
            server.stop();
            server.startWithout(java.util.Set.of("Line1/Running"));
            try {
                Await.until("a gap", Duration.ofSeconds(40), () -> {
                    job.failIfEnded();
                    return !job.gaps().isEmpty();
                });
                server.set("Line1/Temperature", 51.0, t0.plusSeconds(1));
                job.awaitValue(temperature, 51.0);

                assertThat(job.gaps()).singleElement().satisfies(gap -> {
                    assertThat(gap.nodes()).isEqualTo(2);
                    assertThat(gap.nodesNotResubscribed()).isEqualTo(1);
                });
                assertThat(job.changes(running)).extracting(OpcUaDataChange::value).containsExactly(true);
                assertThat(job.changes(temperature)).extracting(OpcUaDataChange::value).containsExactly(50.0, 50.0, 51.0);
            } finally {
                server.stop();
                server.start();
            }
        }
    }

    @Test
    void jobRestartFromACheckpoint_subscribesAnew_andDeliversTheCurrentValue_changesWhileItWasDownAreLost() throws Exception {
        Instant t0 = Instant.parse("2026-04-02T00:00:00Z");
        Path checkpoints = dir.resolve("checkpoints");
        String pressure = server.nodeId("Line1/Pressure");
        server.set("Line1/Pressure", 1.0, t0);
        try (RunningJob job = RunningJob.start(source(pressure), checkpoints)) {
            job.awaitValue(pressure, 1.0);
            long id = job.handle.triggerCheckpoint().get(30, TimeUnit.SECONDS);
            assertThat(id).isPositive();
        }
        server.set("Line1/Pressure", 2.0, t0.plusSeconds(1));   // the job is down: lost
        server.set("Line1/Pressure", 3.0, t0.plusSeconds(2));   // current when it comes back: delivered
        try (RunningJob job = RunningJob.start(source(pressure), checkpoints)) {
            job.awaitValue(pressure, 3.0);
            server.set("Line1/Pressure", 4.0, t0.plusSeconds(3));
            job.awaitValue(pressure, 4.0);
            assertThat(job.changes(pressure)).extracting(OpcUaDataChange::value).containsExactly(3.0, 4.0);
            assertThat(job.gaps()).as("a new job reports no gap: it has no subscription to lose").isEmpty();
        }
    }
}
