package io.millrace.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.Clock;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.SnapshotImage;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link HeapSnapshotTest} with values kept serialized ({@code state.heap.values: serialized}). */
class SerializedHeapSnapshotTest extends HeapSnapshotTest {
    private static final KeyGroupRange ALL = new KeyGroupRange(0, 127);

    @Override
    HeapKeyedStateBackend heap(KeyGroupRange range, int maxParallelism, Clock clock) {
        return new HeapKeyedStateBackend(null, range, maxParallelism, clock, true);
    }

    /** Serialized, a value that cannot be is refused when stored, not when a snapshot is written, and nothing is kept. */
    @Override
    @Test
    void aValueThatCannotBeSerialized_failsWritingTheSnapshotNamingTheStateAndTheClass() {
        HeapKeyedStateBackend backend = heap(ALL, 128, new ManualClock(0));
        ValueState<Object> state = backend.stateStore().getState(new ValueStateDescriptor<>("holder"));
        backend.setCurrentKey("k");

        assertThatThrownBy(() -> state.update(new Object[] {new StringBuilder("ok"), new Thread()}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("state 'holder'")
                .hasMessageContaining("[Ljava.lang.Object;")
                .hasMessageContaining("java.lang.Thread");
        assertThat(state.value()).isNull();
        assertThat(backend.entryCount()).isZero();
    }

    /** Snapshots have one format: state moves from objects to serialized values and back through a snapshot. */
    @Test
    void aSnapshotOfEitherLayout_restoresIntoTheOther() throws Exception {
        ManualClock clock = new ManualClock(0);
        List<Object> keys = keys(300);
        AllKinds objects = new AllKinds(new HeapKeyedStateBackend(null, ALL, 128, clock, false));
        Random random = new Random(17);
        keys.forEach(k -> objects.fill(k, random));

        AllKinds serialized = new AllKinds(heap(ALL, 128, clock));
        SnapshotImage.take(objects.backend).restoreInto(serialized.backend);
        AllKinds objectsAgain = new AllKinds(new HeapKeyedStateBackend(null, ALL, 128, clock, false));
        SnapshotImage.take(serialized.backend).restoreInto(objectsAgain.backend);

        for (Object k : keys) {
            assertThat(serialized.dump(k)).isEqualTo(objects.dump(k));
            assertThat(objectsAgain.dump(k)).isEqualTo(objects.dump(k));
        }
        assertThat(objectsAgain.backend.entryCount()).isEqualTo(objects.backend.entryCount()).isEqualTo(6L * keys.size());
    }

    /** The values' bytes are copied as they are, but keys are encoded when written: a key that cannot be fails there. */
    @Test
    void aKeyThatCannotBeSerialized_failsWritingTheSnapshotNamingTheStateAndTheKeyClass() {
        HeapKeyedStateBackend backend = heap(ALL, 128, new ManualClock(0));
        ValueState<String> state = backend.stateStore().getState(new ValueStateDescriptor<>("by-optional"));
        backend.setCurrentKey(java.util.Optional.of("thread")); // a valid key (equals and hashCode of its own), not serializable
        state.update("fine");
        backend.setCurrentKey("other");

        assertThatThrownBy(() -> SnapshotImage.take(backend))
                .hasRootCauseInstanceOf(java.io.NotSerializableException.class)
                .hasMessageContaining("state 'by-optional'")
                .hasMessageContaining("java.util.Optional");
    }
}
