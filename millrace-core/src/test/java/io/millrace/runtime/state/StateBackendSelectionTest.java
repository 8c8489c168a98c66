package io.millrace.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.heap.HeapKeyedStateBackend;
import io.millrace.runtime.state.heap.HeapValues;
import java.util.List;
import org.junit.jupiter.api.Test;

class StateBackendSelectionTest {
    @Test
    void byDefault_theHeapBackendIsSelected() {
        KeyedStateBackendFactory factory = StateBackendProvider.resolve(new PipelineConfig());
        try (KeyedStateBackend backend = factory.create("op", new KeyGroupRange(0, 3), 4, new ManualClock(0))) {
            assertThat(backend).isInstanceOf(HeapKeyedStateBackend.class);
        }
    }

    @Test
    void whenTheNameIsUnknown_thenTheErrorListsTheAvailableBackends() {
        PipelineConfig config = new PipelineConfig().stateBackend("leveldb");
        assertThatThrownBy(() -> StateBackendProvider.resolve(config))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'leveldb'")
                .hasMessageContaining("available: heap");
    }

    @Test
    void whenAPipelineSelectsAnUnknownBackend_thenExecuteFailsBeforeRunning() {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1).stateBackend("nope"));
        p.fromCollection(List.of(1, 2, 3)).map(i -> i).sinkTo(new CollectSink<>());
        assertThatThrownBy(() -> p.execute("unknown-backend")).hasMessageContaining("unknown state backend 'nope' (option state.backend, PipelineConfig.stateBackend)");
    }

    @Test
    void backendOptionsAreCopiedWithTheConfig() {
        PipelineConfig config = new PipelineConfig().stateBackend("rocksdb").stateBackendOption("state.rocksdb.managed-memory", "64mb");
        PipelineConfig copy = config.copy();
        config.stateBackendOption("state.rocksdb.managed-memory", "128mb");
        assertThat(copy.stateBackend()).isEqualTo("rocksdb");
        assertThat(copy.stateBackendOptions()).containsEntry("state.rocksdb.managed-memory", "64mb");
    }

    @Test
    void theHeapBackendKeepsValuesAsItsOptionSays_autoByDefault() {
        for (String value : List.of("objects", "serialized", "auto", " auto ")) {
            PipelineConfig config = new PipelineConfig().stateBackendOption("state.heap.values", value);
            try (KeyedStateBackend backend = StateBackendProvider.resolve(config)
                    .create("op", new KeyGroupRange(0, 3), 4, new ManualClock(0))) {
                assertThat(((HeapKeyedStateBackend) backend).serializedValues()).as(value).isEqualTo(value.equals("serialized"));
                assertThat(((HeapKeyedStateBackend) backend).values().name()).as(value).isEqualToIgnoringCase(value.trim());
            }
        }
        HeapKeyedStateBackend byDefault = (HeapKeyedStateBackend) StateBackendProvider.resolve(new PipelineConfig())
                .create("op", new KeyGroupRange(0, 3), 4, new ManualClock(0));
        assertThat(byDefault.serializedValues()).as("default").isFalse();
        assertThat(byDefault.values()).as("default").isEqualTo(HeapValues.AUTO);
    }

    @Test
    void aMalformedOrUnknownHeapOption_failsNamingItAndWhatIsAccepted() {
        assertThatThrownBy(() -> StateBackendProvider.resolve(new PipelineConfig().stateBackendOption("state.heap.values", "bytes")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'state.heap.values'").hasMessageContaining("objects, serialized or auto").hasMessageContaining("'bytes'");
        assertThatThrownBy(() -> StateBackendProvider.resolve(new PipelineConfig().stateBackendOption("state.heap.value", "serialized")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'state.heap.value'").hasMessageContaining("accepted: state.heap.values");
    }
}
