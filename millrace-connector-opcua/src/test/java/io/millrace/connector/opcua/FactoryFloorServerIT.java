package io.millrace.connector.opcua;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.sim.FactoryEvent;
import io.millrace.sim.FactorySimulator;
import io.millrace.sim.SensorReading;
import io.millrace.sim.SimulatorConfig;
import io.millrace.sim.SpindleEvent;
import io.millrace.testing.Await;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The factory simulator served over OPC UA: what the OPC UA source reads is what the simulator produced. */
class FactoryFloorServerIT {
    @Test
    void theSourceReadsTheSimulatorsTags_everyValueWithTheEventTimeTheSimulatorGaveIt() throws Exception {
        SimulatorConfig config = floor().speedup(30).build();
        Set<String> produced = new HashSet<>();
        Pipeline truth = Pipeline.create(new PipelineConfig().parallelism(1));
        FactorySimulator sim = new FactorySimulator(floor().unlimitedSpeed().build());   // the same events, as fast as possible
        CollectSink<FactoryEvent> all = new CollectSink<>();
        truth.fromSource(sim, sim.watermarkStrategy(), "truth").sinkTo(all);
        JobResult r = truth.execute("truth");
        assertThat(r.cancelled()).isFalse();
        for (FactoryEvent e : all.results()) {
            if (e instanceof SensorReading s) {
                produced.add(s.machineId() + "/" + tagOf(s) + "@" + s.eventTime() + "=" + s.value());
            } else if (e instanceof SpindleEvent s) {
                produced.add(s.machineId() + "/Spindle@" + s.eventTime() + "=" + s.state());
            }
        }

        // tag::floor[]
        try (FactoryFloorServer floor = FactoryFloorServer.start(config, "127.0.0.1", 0)) {   // port 0: a free one
            OpcUaSource source = OpcUaSource.builder()
                    .endpoint(floor.endpoint())                  // opc.tcp://127.0.0.1:<port>/factory
                    .browse(floor.factoryFolder())               // Factory/<machine>/Temperature, Vibration, Pressure, Spindle
                    .samplingInterval(Duration.ofMillis(20))
                    .publishingInterval(Duration.ofMillis(50))
                    .build();
            // end::floor[]
            Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
            CollectSink<OpcUaRecord> read = new CollectSink<>();
            p.fromSource(source, WatermarkStrategy.<OpcUaRecord>noWatermarks(), "tags").sinkTo(read);
            var job = p.executeAsync("read tags");
            try {
                Await.until("good values of every tag of every machine, and 100 changes", Duration.ofSeconds(40), () -> {
                    List<OpcUaDataChange> good = read.results().stream().filter(x -> x instanceof OpcUaDataChange c && c.isGood())
                            .map(x -> (OpcUaDataChange) x).toList();
                    return good.size() >= 100 && good.stream().map(OpcUaDataChange::nodeId).distinct().count() == 12;
                });
            } finally {
                job.cancel();
                job.await(Duration.ofSeconds(20));
            }
            List<OpcUaDataChange> good = read.results().stream().filter(x -> x instanceof OpcUaDataChange c && c.isGood())
                    .map(x -> (OpcUaDataChange) x).toList();
            assertThat(good).isNotEmpty().allSatisfy(c -> {
                String path = c.nodeId().substring(c.nodeId().indexOf("Factory/") + "Factory/".length());
                assertThat(produced).as("a value the simulator produced").contains(path + "@" + c.eventTime() + "=" + c.value());
                assertThat(c.sourceTime().toEpochMilli()).isEqualTo(c.eventTime());
            });
            List<FactoryEvent> events = new java.util.ArrayList<>();
            var toEvents = FactoryFloorServer.toFactoryEvents();
            for (OpcUaRecord x : read.results()) {
                toEvents.flatMap(x, events::add);
            }
            assertThat(events).hasSameSizeAs(good).allSatisfy(e -> {
                String key = e instanceof SensorReading s ? s.machineId() + "/" + tagOf(s) + "@" + s.eventTime() + "=" + s.value()
                        : ((SpindleEvent) e).machineId() + "/Spindle@" + e.eventTime() + "=" + ((SpindleEvent) e).state();
                assertThat(produced).as("an event the simulator produced").contains(key);
                assertThat(e.seq()).isEqualTo(-1);
            });
            assertThat(read.results().stream().filter(x -> x instanceof OpcUaDataChange c && !c.isGood()))
                    .allSatisfy(x -> assertThat(((OpcUaDataChange) x).statusName()).isEqualTo("Bad_WaitingForInitialData"));
        }
    }

    /** Three machines, a one-minute run cycle and no drop-outs, so that every tag reports within seconds. */
    private static SimulatorConfig.Builder floor() {
        return SimulatorConfig.builder().machines(3).eventsPerSecond(30).runCycle(Duration.ofSeconds(60)).dropoutProbability(0).dropoutMaxLength(Duration.ofSeconds(10))
                .duration(Duration.ofMinutes(5)).seed(11);
    }

    private static String tagOf(SensorReading s) {
        return switch (s.sensor()) {
            case TEMPERATURE -> "Temperature";
            case VIBRATION -> "Vibration";
            case PRESSURE -> "Pressure";
        };
    }
}
