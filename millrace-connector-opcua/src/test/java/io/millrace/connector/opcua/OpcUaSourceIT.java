package io.millrace.connector.opcua;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.opcua.server.TestOpcUaServer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The OPC UA source against a real server (security policy None, anonymous): what it delivers, and when it refuses. */
class OpcUaSourceIT {
    @TempDir
    static Path dir;
    static TestOpcUaServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = TestOpcUaServer.start(dir);
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    private static OpcUaSource.Builder fast() {
        return OpcUaSource.builder().endpoint(server.endpoint())
                .samplingInterval(Duration.ofMillis(10)).publishingInterval(Duration.ofMillis(20));
    }

    @Test
    void listedNodes_deliverTheCurrentValueFirst_thenEveryChange_typed_withSourceTimeAsEventTime() throws Exception {
        Instant t0 = Instant.parse("2026-02-01T06:00:00Z");
        server.set("Line1/Count", 100, t0);
        server.set("Line1/Temperature", 20.0, t0);
        server.set("Line1/Running", false, t0);
        server.set("Line1/Mode", "start", t0);
        String count = server.nodeId("Line1/Count");
        String temperature = server.nodeId("Line1/Temperature");
        String running = server.nodeId("Line1/Running");
        String mode = server.nodeId("Line1/Mode");
        Instant before = Instant.now();
        try (RunningJob job = RunningJob.start(fast().nodes(count, temperature, running, mode).build())) {
            job.awaitValue(mode, "start");
            job.awaitValue(count, 100);
            for (int i = 1; i <= 20; i++) {
                Instant t = t0.plusSeconds(i);
                server.set("Line1/Temperature", 20.0 + i * 0.5, t);
                server.set("Line1/Running", i % 2 == 1, t);
                server.set("Line1/Mode", "step-" + i, t);
                server.set("Line1/Count", 100 + i, t);
                job.awaitValue(count, 100 + i);
                job.awaitValue(mode, "step-" + i);
            }
            job.awaitChanges(temperature, 21);
            job.awaitChanges(running, 21);

            assertThat(job.changes(count)).extracting(OpcUaDataChange::value)
                    .containsExactlyElementsOf(IntStream.rangeClosed(100, 120).boxed().map(Object.class::cast).toList());
            assertThat(job.changes(temperature)).extracting(OpcUaDataChange::value)
                    .containsExactlyElementsOf(IntStream.rangeClosed(0, 20).mapToObj(i -> (Object) (20.0 + i * 0.5)).toList());
            assertThat(job.changes(running)).extracting(OpcUaDataChange::value)
                    .containsExactlyElementsOf(IntStream.rangeClosed(0, 20).mapToObj(i -> (Object) (i % 2 == 1)).toList());
            assertThat(job.changes(mode)).extracting(OpcUaDataChange::value)
                    .containsExactlyElementsOf(IntStream.rangeClosed(0, 20).mapToObj(i -> (Object) (i == 0 ? "start" : "step-" + i)).toList());
            for (String node : List.of(count, temperature, running, mode)) {
                List<OpcUaDataChange> changes = job.changes(node);
                assertThat(changes).extracting(OpcUaDataChange::sourceTime)
                        .containsExactlyElementsOf(IntStream.rangeClosed(0, 20).mapToObj(t0::plusSeconds).toList());
                assertThat(changes).allSatisfy(c -> {
                    assertThat(c.eventTime()).isEqualTo(c.sourceTime().toEpochMilli());
                    assertThat(c.statusCode()).isZero();
                    assertThat(c.isGood()).isTrue();
                    assertThat(c.statusName()).isEqualTo("Good");
                    assertThat(c.serverTime()).isBetween(before.minusSeconds(1), Instant.now().plusSeconds(1));
                });
            }
            OpcUaDataChange c = job.changes(count).get(0);
            assertThat(c.valueType()).isEqualTo("Int32");
            assertThat(c.browseName()).isEqualTo("Count");
            assertThat(c.displayName()).isEqualTo("Line 1 parts");
            assertThat(job.changes(temperature).get(0).valueType()).isEqualTo("Double");
            assertThat(job.changes(running).get(0).valueType()).isEqualTo("Boolean");
            assertThat(job.changes(mode).get(0).valueType()).isEqualTo("String");
            List<OpcUaRecord> all = job.sink.results();
            List<Long> stamps = job.sink.timestamps();
            assertThat(stamps).hasSameSizeAs(all).hasSize(84);
            for (int i = 0; i < all.size(); i++) {
                assertThat(stamps.get(i)).as("record %s is emitted with its event time", all.get(i)).isEqualTo(all.get(i).eventTime());
            }
            assertThat(job.gaps()).isEmpty();
        }
    }

    @Test
    void browsedFolder_monitorsEveryVariableBelowIt_inSubFoldersToo_andNothingBesideIt() throws Exception {
        Instant t = Instant.parse("2026-02-02T00:00:00Z");
        server.set("Line1/Press/Force", 1.5, t);
        try (RunningJob job = RunningJob.start(fast().browse(server.nodeId("Line1")).build())) {
            List<String> expected = TestOpcUaServer.VARIABLES.stream().map(TestOpcUaServer.Variable::path)
                    .filter(p -> p.startsWith("Line1/")).map(server::nodeId).toList();
            for (String node : expected) {
                job.awaitChanges(node, 1);
            }
            String force = server.nodeId("Line1/Press/Force");
            server.set("Line1/Press/Force", 42.0, t.plusSeconds(1));
            job.awaitValue(force, 42.0);

            assertThat(job.changes()).extracting(OpcUaDataChange::nodeId).isSubsetOf(expected);
            assertThat(expected).hasSize(6).doesNotContain(server.nodeId("Other/Ambient"));
            assertThat(job.changes(force)).extracting(OpcUaDataChange::value).containsExactly(1.5, 42.0);
            assertThat(job.changes(force).get(1).sourceTime()).isEqualTo(t.plusSeconds(1));
            assertThat(job.changes(force).get(0).displayName()).isEqualTo("Press force");
        }
    }

    @Test
    void badAndUncertainQuality_areDeliveredAsData_withTheirStatusCodes() throws Exception {
        Instant t = Instant.parse("2026-02-03T00:00:00Z");
        server.set("Line1/Pressure", 1.0, t);
        String pressure = server.nodeId("Line1/Pressure");
        try (RunningJob job = RunningJob.start(fast().nodes(pressure).build())) {
            job.awaitValue(pressure, 1.0);
            server.setWithStatus("Line1/Pressure", null, StatusCodes.Bad_SensorFailure, t.plusSeconds(1));
            job.awaitChanges(pressure, 2);
            server.setWithStatus("Line1/Pressure", 1.25, StatusCodes.Uncertain_LastUsableValue, t.plusSeconds(2));
            job.awaitValue(pressure, 1.25);
            server.set("Line1/Pressure", 1.5, t.plusSeconds(3));
            job.awaitValue(pressure, 1.5);

            List<OpcUaDataChange> changes = job.changes(pressure);
            assertThat(changes).hasSize(4);
            OpcUaDataChange bad = changes.get(1);
            assertThat(bad.isBad()).isTrue();
            assertThat(bad.statusCode()).isEqualTo(StatusCodes.Bad_SensorFailure);
            assertThat(bad.statusName()).isEqualTo("Bad_SensorFailure");
            assertThat(bad.value()).isNull();
            assertThat(bad.valueType()).isEqualTo("Null");
            assertThat(bad.sourceTime()).isEqualTo(t.plusSeconds(1));
            OpcUaDataChange uncertain = changes.get(2);
            assertThat(uncertain.isUncertain()).isTrue();
            assertThat(uncertain.isBad()).isFalse();
            assertThat(uncertain.statusName()).isEqualTo("Uncertain_LastUsableValue");
            assertThat(changes.get(3).isGood()).isTrue();
        }
    }

    @Test
    void moreChangesThanTheQueueHoldsBetweenTwoPublishes_dropTheOldest_andTheOverflowBitMarksThem() throws Exception {
        Instant t = Instant.parse("2026-02-06T00:00:00Z");
        server.set("Line1/Count", 0, t);
        String count = server.nodeId("Line1/Count");
        OpcUaSource source = OpcUaSource.builder().endpoint(server.endpoint()).nodes(count)
                .samplingInterval(Duration.ofMillis(10)).publishingInterval(Duration.ofMillis(1500)).queueSize(3).build();
        try (RunningJob job = RunningJob.start(source)) {
            job.awaitValue(count, 0);
            for (int i = 1; i <= 8; i++) {
                long sampled = server.reads("Line1/Count");
                server.set("Line1/Count", i, t.plusSeconds(i));
                io.millrace.testing.Await.until("a sample of " + sampled, () -> server.reads("Line1/Count") >= sampled + 2);
            }
            job.awaitValue(count, 8);

            List<OpcUaDataChange> changes = job.changes(count);
            List<Object> values = changes.stream().map(OpcUaDataChange::value).toList();
            assertThat(values).as("the newest changes are kept, in order").startsWith(0).endsWith(8).isSortedAccordingTo(
                    java.util.Comparator.comparing(v -> (Integer) v)).doesNotHaveDuplicates();
            assertThat(values.size()).as("changes dropped beyond the queue of 3").isLessThan(9);
            assertThat(changes.stream().filter(OpcUaDataChange::overflow)).as("the drops are marked").isNotEmpty();
            assertThat(changes.get(0).overflow()).isFalse();
            assertThat(changes).allSatisfy(c -> assertThat(c.isGood()).isTrue());
        }
    }

    @Test
    void aValueTheSourceCannotConvert_goesToTheDeadLetters_namingTheNode_andTheJobGoesOn() throws Exception {
        Instant t = Instant.parse("2026-02-07T00:00:00Z");
        server.set("Other/Ambient", 17.0, t);
        String limits = server.nodeId("Other/Limits");
        String ambient = server.nodeId("Other/Ambient");
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
        CollectSink<OpcUaRecord> records = new CollectSink<>();
        CollectSink<io.millrace.api.source.BadRecord> dead = new CollectSink<>();
        var stream = p.fromSource(fast().nodes(limits, ambient).build(), WatermarkStrategy.<OpcUaRecord>noWatermarks(),
                io.millrace.api.source.BadRecordPolicy.DEAD_LETTER, "plc");
        stream.sinkTo(records);
        stream.getSideOutput(io.millrace.api.source.BadRecord.DEAD_LETTERS).sinkTo(dead);
        var handle = p.executeAsync("dead letters");
        try {
            io.millrace.testing.Await.until("a dead letter and the ambient value", Duration.ofSeconds(30),
                    () -> dead.size() >= 1 && records.results().stream().anyMatch(r -> r instanceof OpcUaDataChange c && c.value().equals(17.0)));
            server.set("Other/Ambient", 17.5, t.plusSeconds(1));
            io.millrace.testing.Await.until("the next ambient value", Duration.ofSeconds(30),
                    () -> records.results().stream().anyMatch(r -> r instanceof OpcUaDataChange c && c.value().equals(17.5)));
        } finally {
            handle.cancel();
            handle.await(Duration.ofSeconds(20));
        }
        assertThat(dead.results()).singleElement().satisfies(bad -> {
            assertThat(bad.location()).isEqualTo("node " + limits + " at " + server.endpoint());
            assertThat(bad.reason()).contains("values of type ExtensionObject").contains("are not supported");
            assertThat(bad.rawText()).isNotEmpty();
        });
        assertThat(records.results()).allSatisfy(r -> assertThat(((OpcUaDataChange) r).nodeId()).isEqualTo(ambient));
    }

    @Test
    void aValueWithoutSourceTime_hasTheServerTimeAsEventTime() throws Exception {
        Instant t = Instant.parse("2026-02-04T00:00:00Z");
        server.set("Other/Ambient", 18.0, t);
        String ambient = server.nodeId("Other/Ambient");
        try (RunningJob job = RunningJob.start(fast().nodes(ambient).build())) {
            job.awaitValue(ambient, 18.0);
            Instant before = Instant.now();
            server.setWithoutSourceTime("Other/Ambient", 18.5);
            job.awaitValue(ambient, 18.5);

            OpcUaDataChange c = job.changes(ambient).get(1);
            assertThat(c.sourceTime()).isNull();
            assertThat(c.serverTime()).isNotNull();
            assertThat(c.eventTime()).isEqualTo(c.serverTime().toEpochMilli());
            assertThat(c.serverTime()).isAfterOrEqualTo(before.minusMillis(5));
        }
    }

    @Test
    void eventTimeWindows_fireFromTheSourceTimestamps() throws Exception {
        Instant t0 = Instant.parse("2026-02-05T08:00:00Z");
        server.set("Line1/Press/Force", 0.0, t0);
        String force = server.nodeId("Line1/Press/Force");
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
        CollectSink<OpcUaRecord> raw = new CollectSink<>();
        CollectSink<OpcUaDataChange> maxima = new CollectSink<>();
        var plc = p.fromSource(fast().nodes(force).build(), WatermarkStrategy.<OpcUaRecord>boundedOutOfOrderness(Duration.ofSeconds(2)), "plc");
        plc.sinkTo(raw);
        plc.filter(r -> r instanceof OpcUaDataChange)
                .map(r -> (OpcUaDataChange) r)
                .keyBy(OpcUaDataChange::nodeId)
                .window(io.millrace.api.window.Windows.tumbling(Duration.ofSeconds(10)))
                .reduce((a, b) -> a.doubleValue() >= b.doubleValue() ? a : b)
                .sinkTo(maxima);
        var handle = p.executeAsync("windows");
        try {
            for (int i = 0; i <= 23; i++) {
                double value = i;
                if (i > 0) {
                    server.set("Line1/Press/Force", value, t0.plusSeconds(i));
                }
                io.millrace.testing.Await.until("force " + value, Duration.ofSeconds(30), () -> raw.results().stream()
                        .anyMatch(r -> r instanceof OpcUaDataChange c && c.value().equals(value)));
            }
            io.millrace.testing.Await.until("two windows", Duration.ofSeconds(30), () -> maxima.size() >= 2);
            assertThat(maxima.results()).extracting(OpcUaDataChange::value).containsExactly(9.0, 19.0);
            assertThat(maxima.timestamps()).containsExactly(t0.plusSeconds(10).toEpochMilli() - 1, t0.plusSeconds(20).toEpochMilli() - 1);
        } finally {
            handle.cancel();
            handle.await(Duration.ofSeconds(20));
        }
    }

    @Test
    void listedNodesThatCannotBeMonitored_failTheJobNamingThem() {
        String missing = server.nodeId("Line1/NoSuchThing");
        String folder = server.nodeId("Line1");
        assertThatThrownBy(() -> runToFailure(fast().nodes(server.nodeId("Line1/Count"), missing, folder).build()))
                .hasStackTraceContaining("option 'nodes': cannot monitor " + missing + " (Bad_NodeIdUnknown)")
                .hasStackTraceContaining(folder + " (Object node, not a variable: give folders with option 'browse')")
                .hasStackTraceContaining(server.endpoint());
        assertThatThrownBy(() -> runToFailure(fast().browse(missing).build()))
                .hasStackTraceContaining("option 'browse': cannot browse " + missing);
    }

    @Test
    void anUnreachableEndpoint_failsTheJobNamingIt() {
        OpcUaSource source = OpcUaSource.builder().endpoint("opc.tcp://127.0.0.1:1/none").nodes("ns=2;s=x")
                .requestTimeout(Duration.ofSeconds(2)).build();
        assertThatThrownBy(() -> runToFailure(source))
                .hasStackTraceContaining("cannot reach opc.tcp://127.0.0.1:1/none to list its endpoints (is the server running?)");
    }

    private static void runToFailure(OpcUaSource source) {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
        p.fromSource(source, WatermarkStrategy.<OpcUaRecord>noWatermarks(), "plc").sinkTo(new CollectSink<>());
        p.execute("must fail");
        throw new AssertionError("the job did not fail");
    }
}
