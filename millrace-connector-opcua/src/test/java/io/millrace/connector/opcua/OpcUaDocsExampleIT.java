package io.millrace.connector.opcua;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.Windows;
import io.millrace.connector.opcua.server.TestOpcUaServer;
import io.millrace.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example of docs/opcua.md, run against the test server. */
class OpcUaDocsExampleIT {
    @TempDir
    Path dir;

    @Test
    void docsExample_maximumPerVariableAnd10Seconds_ofTheGoodValuesBelowAFolder() throws Exception {
        try (TestOpcUaServer server = TestOpcUaServer.start(dir)) {
            Instant t0 = Instant.parse("2026-06-01T12:00:00Z");
            server.set("Line1/Press/Force", 0.0, t0);
            String endpoint = server.endpoint();
            String pressFolder = server.nodeId("Line1/Press");
            CollectSink<OpcUaDataChange> maxima = new CollectSink<>();
            CollectSink<OpcUaRecord> gaps = new CollectSink<>();
            CollectSink<OpcUaRecord> all = new CollectSink<>();

            // tag::example[]
            Pipeline pipeline = Pipeline.create(new PipelineConfig());

            OpcUaSource plc = OpcUaSource.builder()
                    .endpoint(endpoint)                                  // e.g. opc.tcp://plc-7:4840/plant
                    .browse(pressFolder)                                 // every variable below the folder
                    .samplingInterval(Duration.ofMillis(10))             // the server samples each variable this often
                    .publishingInterval(Duration.ofMillis(20))           // and sends what changed this often
                    .queueSize(100)                                      // changes kept per variable between two sends
                    .build();

            var records = pipeline.fromSource(plc,
                    WatermarkStrategy.<OpcUaRecord>boundedOutOfOrderness(Duration.ofSeconds(2))   // event time: source timestamps
                            .withIdleness(Duration.ofMinutes(1)),                               // a quiet server holds back no other input
                    "press");
            records.filter(r -> r instanceof OpcUaDataChange c && c.isGood())
                    .map(r -> (OpcUaDataChange) r)
                    .keyBy(OpcUaDataChange::nodeId)
                    .window(Windows.tumbling(Duration.ofSeconds(10)))
                    .reduce((a, b) -> a.doubleValue() >= b.doubleValue() ? a : b)
                    .sinkTo(maxima);
            records.filter(r -> r instanceof OpcUaGap).sinkTo(gaps);            // server restarts: what may be missing

            // end::example[]
            records.sinkTo(all);                                                 // to pace the test: one change at a time
            var job = pipeline.executeAsync("press maxima");
            try {
                for (int i = 0; i <= 13; i++) {
                    double force = i == 5 ? 99.0 : i;
                    if (i > 0) {
                        if (i == 7) {
                            server.setWithStatus("Line1/Press/Force", 500.0, org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_SensorFailure,
                                    t0.plusSeconds(i));
                        } else {
                            server.set("Line1/Press/Force", force, t0.plusSeconds(i));
                        }
                    }
                    long seen = i + 1;
                    Await.until("the source's change " + i, Duration.ofSeconds(30), () -> all.size() >= seen);
                }
                Await.until("a window result", Duration.ofSeconds(30), () -> maxima.size() >= 1);
            } finally {
                job.cancel();
                job.await(Duration.ofSeconds(20));
            }
            assertThat(maxima.results()).singleElement().satisfies(max -> {
                assertThat(max.value()).as("the bad 500.0 is left out").isEqualTo(99.0);
                assertThat(max.sourceTime()).isEqualTo(t0.plusSeconds(5));
                assertThat(max.browseName()).isEqualTo("Force");
            });
            assertThat(gaps.results()).isEmpty();
        }
    }
}
