package io.millrace.rocksdb.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.Windows;
import io.millrace.rocksdb.RocksDbConfig;
import io.millrace.rocksdb.RocksDbStateBackends;
import io.millrace.runtime.local.LocalExecutor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The examples of docs/state-backends.md, run as tests. */
class StateBackendsExamplesTest {
    @TempDir
    Path stateDir;

    record Reading(String machine, double kwh) {}

    @TempDir
    Path checkpointDir;

    @Test
    void keyedSum_onRocksDb_selectedByName_withCheckpoints() throws Exception {
        // tag::select-rocksdb[]
        PipelineConfig config = new PipelineConfig()
                .stateBackend("rocksdb")                                          // "heap" is the default
                .stateBackendOption("state.rocksdb.managed-memory", "64mb")
                .stateBackendOption("state.rocksdb.directory", stateDir.resolve("rocksdb").toString());
        config.checkpoints().directory(checkpointDir).interval(Duration.ofSeconds(1));
        Pipeline pipeline = Pipeline.create(config);
        CollectSink<Reading> totals = new CollectSink<>();
        pipeline.fromElements(new Reading("press-1", 1.5), new Reading("press-2", 2.0), new Reading("press-1", 0.5))
                .keyBy(Reading::machine)
                .reduce((a, b) -> new Reading(a.machine(), a.kwh() + b.kwh()))
                .sinkTo(totals);
        pipeline.execute("energy per machine");
        // end::select-rocksdb[]
        assertThat(totals.results()).contains(new Reading("press-1", 2.0), new Reading("press-2", 2.0));
        assertThat(stateDir.resolve("rocksdb")).as("created by the RocksDB backend").isDirectory();
        try (var left = Files.list(stateDir.resolve("rocksdb"))) {
            assertThat(left).as("working directories after the job").isEmpty();
        }
    }

    @Test
    void keyedSum_onRocksDb() throws Exception {
        // tag::run-on-rocksdb[]
        Pipeline pipeline = Pipeline.create();
        CollectSink<Reading> totals = new CollectSink<>();
        pipeline.fromElements(new Reading("press-1", 1.5), new Reading("press-2", 2.0), new Reading("press-1", 0.5))
                .keyBy(Reading::machine)
                .reduce((a, b) -> new Reading(a.machine(), a.kwh() + b.kwh()))
                .sinkTo(totals);

        RocksDbConfig rocksDb = RocksDbConfig.defaults()
                .withBaseDirectory(stateDir)                 // one working directory per operator subtask
                .withManagedMemoryBytes(64L << 20);          // block cache + write buffers of the whole process
        new LocalExecutor(RocksDbStateBackends.factory(rocksDb))
                .submit(pipeline.plan(), "energy per machine")
                .await();
        // end::run-on-rocksdb[]
        assertThat(totals.results()).contains(new Reading("press-1", 2.0), new Reading("press-2", 2.0));
    }

    record Cycle(String machine, long time) {}

    record Count(String machine, long cycles) {}

    @Test
    void windowTimers_beyondASmallTimerCache_liveInRocksDb_andAllFire() throws Exception {
        List<Cycle> cycles = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {                       // 5,000 machines, 4 cycles each, in one minute
            cycles.add(new Cycle("m-" + i % 5_000, i * 3L));
        }
        // tag::timer-cache[]
        PipelineConfig config = new PipelineConfig()
                .stateBackend("rocksdb")
                .stateBackendOption("state.rocksdb.directory", stateDir.resolve("rocksdb").toString())
                .stateBackendOption("state.rocksdb.timer-cache.entries", "1024");   // default 131072
        Pipeline pipeline = Pipeline.create(config);
        CollectSink<Count> counts = new CollectSink<>();
        pipeline.fromCollection(cycles)
                .assignTimestampsAndWatermarks(WatermarkStrategy.<Cycle>monotonous().withTimestampAssigner((c, ts) -> c.time()))
                .map(c -> new Count(c.machine(), 1))
                .keyBy(Count::machine)
                .window(Windows.tumbling(Duration.ofMinutes(1)))     // one timer per machine, at the minute's end
                .reduce((a, b) -> new Count(a.machine(), a.cycles() + b.cycles()))
                .sinkTo(counts);
        pipeline.execute("cycles per machine and minute");
        // end::timer-cache[]
        assertThat(counts.results()).hasSize(5_000).allSatisfy(c -> assertThat(c.cycles()).as(c.machine()).isEqualTo(4));
    }
}
