package io.millrace.runtime.state;

import static io.millrace.runtime.state.ReadingVersions.READING;
import static io.millrace.runtime.state.ReadingVersions.V1;
import static io.millrace.runtime.state.ReadingVersions.V2;
import static io.millrace.runtime.state.ReadingVersions.V3;
import static io.millrace.runtime.state.ReadingVersions.V4;
import static io.millrace.runtime.state.ReadingVersions.readingV1;
import static io.millrace.testing.ClassVersions.component;
import static io.millrace.testing.ClassVersions.withContextLoader;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.state.ListState;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.Clock;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.serde.StateSchemaException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * State written with one version of a record class and restored with another, through the backend's
 * snapshot and restore: compatible changes map the stored values, incompatible ones fail the restore
 * (at restore or when the state is created, before any record) naming the state, operator, field and types.
 * Subclasses create backends whose operator is named {@value #OPERATOR}.
 */
public abstract class SchemaEvolutionContractTest extends BackendContract {
    protected static final String OPERATOR = "test-operator";
    private static final KeyGroupRange ALL = new KeyGroupRange(0, 127);

    private final ManualClock clock = new ManualClock(0);

    private record Image(byte[] bytes, long[] offsets) {}

    /** Writes V1 readings into value, list and map states under two keys and snapshots them. */
    private Image writeV1() throws Exception {
        return withContextLoader(V1, () -> {
            KeyedStateBackend b = writingBackend(ALL, 128, clock);
            ValueState<Object> latest = b.stateStore().getState(new ValueStateDescriptor<>("latest"));
            ListState<Object> history = b.stateStore().getListState(new ListStateDescriptor<>("history"));
            MapState<String, Object> byShift = b.stateStore().getMapState(new MapStateDescriptor<>("byShift"));
            for (String machine : List.of("press-1", "press-2")) {
                b.setCurrentKey(machine);
                latest.update(readingV1(machine, 7, 0.5, "FAULT", "bolt", 1.5f));
                history.add(readingV1(machine, 1, 0.1, "OK", "nut", 2.5f));
                history.add(readingV1(machine, Integer.MAX_VALUE, 0.2, "IDLE", "pin", 0.25f));
                byShift.put("night", readingV1(machine, 3, 0.3, "OK", "cap", 4f));
            }
            b.setCurrentKey(null);
            return snapshot(b);
        });
    }

    /** The backend the V1 state is written on and snapshotted; the default: the backend under test. */
    protected KeyedStateBackend writingBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
        return backend(range, maxParallelism, clock);
    }

    /** Whether the snapshots are savepoints (the canonical format every backend restores); the default: checkpoints. */
    protected boolean savepoints() {
        return false;
    }

    private Image snapshot(KeyedStateBackend backend) throws Exception {
        KeyedStateSnapshot snapshot = savepoints() ? backend.snapshot(1, true) : backend.snapshot(1);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        long[] offsets = new long[ALL.size()];
        try {
            snapshot.write(out, out::size, offsets);
        } finally {
            snapshot.release();
        }
        return new Image(bytes.toByteArray(), offsets);
    }

    private KeyedStateBackend restore(Image image) throws Exception {
        KeyedStateBackend b = backend(ALL, 128, clock);
        for (int g = 0; g < ALL.size(); g++) {
            int at = (int) image.offsets[g];
            b.restoreKeyGroup(g, new DataInputStream(new ByteArrayInputStream(image.bytes, at, image.bytes.length - at)));
        }
        return b;
    }

    @Test
    public void whenRestoredWithAFieldAddedOneRemovedAndOneWidened_thenValuesAreMappedByName() throws Exception {
        Image image = writeV1();

        withContextLoader(V2, () -> {
            KeyedStateBackend b = restore(image);
            ValueState<Object> latest = b.stateStore().getState(new ValueStateDescriptor<>("latest"));
            ListState<Object> history = b.stateStore().getListState(new ListStateDescriptor<>("history"));
            MapState<String, Object> byShift = b.stateStore().getMapState(new MapStateDescriptor<>("byShift"));
            b.setCurrentKey("press-2");

            Object r = latest.value();
            assertThat(r.getClass().getClassLoader()).isSameAs(V2);
            assertThat(component(r, "machine")).isEqualTo("press-2");
            assertThat(component(r, "count")).isEqualTo(7L);
            assertThat(component(r, "unit")).isNull();
            assertThat(((Enum<?>) component(r, "status")).name()).isEqualTo("FAULT");
            Object part = ((List<?>) component(r, "parts")).get(0);
            assertThat(component(part, "weight")).isEqualTo(1.5d);
            assertThat(component(part, "checked")).isEqualTo(false);
            List<Object> counts = new ArrayList<>();
            for (Object h : history.get()) {
                counts.add(component(h, "count"));
            }
            assertThat(counts).containsExactly(1L, (long) Integer.MAX_VALUE);
            assertThat(component(byShift.get("night"), "count")).isEqualTo(3L);
            return null;
        });
    }

    @Test
    public void whenRestoredWithAFieldOfAnIncompatibleType_thenTheRestoreFailsNamingStateFieldAndBothTypes() throws Exception {
        Image image = writeV1();

        withContextLoader(V3, () -> {
            assertThatThrownBy(() -> {
                KeyedStateBackend b = restore(image);
                b.stateStore().getState(new ValueStateDescriptor<>("latest"));
            })
                    .isInstanceOf(StateSchemaException.class)
                    .hasMessageContaining("state 'latest'")
                    .hasMessageContaining("operator '" + OPERATOR + "'")
                    .hasMessageContaining("field 'count' of record " + READING)
                    .hasMessageContaining("stored as int and is now java.lang.String")
                    .hasMessageContaining("new name");
            return null;
        });
    }

    @Test
    public void whenAnEnumConstantThatStoredValuesHoldIsGone_thenTheRestoreFailsNamingTheConstant() throws Exception {
        Image image = writeV1();

        withContextLoader(V4, () -> {
            assertThatThrownBy(() -> {
                KeyedStateBackend b = restore(image);
                b.stateStore().getState(new ValueStateDescriptor<>("latest"));
            })
                    .isInstanceOf(StateSchemaException.class)
                    .hasMessageContaining("state 'latest'")
                    .hasMessageContaining("enum evo.Status has no constant 'FAULT'");
            return null;
        });
    }

    @Test
    public void whenTheStateIsCreatedBeforeTheRestore_thenAnIncompatibleChangeFailsTheRestoreItself() throws Exception {
        Image image = writeV1();

        withContextLoader(V3, () -> {
            KeyedStateBackend b = backend(ALL, 128, clock);
            b.stateStore().getState(new ValueStateDescriptor<>("latest"));
            assertThatThrownBy(() -> {
                for (int g = 0; g < ALL.size(); g++) {
                    int at = (int) image.offsets[g];
                    b.restoreKeyGroup(g, new DataInputStream(new ByteArrayInputStream(image.bytes, at, image.bytes.length - at)));
                }
            })
                    .isInstanceOf(StateSchemaException.class)
                    .hasMessageContaining("state 'latest'")
                    .hasMessageContaining("field 'count'");
            return null;
        });
    }

    @Test
    public void whenTheIncompatibleStateIsRenamed_thenTheJobStarts_andTheOldStateIsCarriedUndecoded() throws Exception {
        Image image = writeV1();

        Image carried = withContextLoader(V3, () -> {
            KeyedStateBackend b = restore(image);
            ValueState<Object> renamed = b.stateStore().getState(new ValueStateDescriptor<>("latest-v3"));
            b.setCurrentKey("press-1");
            assertThat(renamed.value()).isNull();
            b.setCurrentKey(null);
            return snapshot(b);
        });

        withContextLoader(V1, () -> {
            KeyedStateBackend b = restore(carried);
            ValueState<Object> latest = b.stateStore().getState(new ValueStateDescriptor<>("latest"));
            b.setCurrentKey("press-1");
            assertThat(component(latest.value(), "count")).isEqualTo(7);
            return null;
        });
    }
}
