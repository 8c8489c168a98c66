package io.millrace.docs;

import static io.millrace.testing.ClassVersions.component;
import static io.millrace.testing.ClassVersions.withContextLoader;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateSnapshot;
import io.millrace.runtime.state.heap.HeapKeyedStateBackend;
import io.millrace.runtime.state.serde.StateSchemaException;
import io.millrace.testing.ClassVersions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The examples of "Evolving state types" in docs/state.md: state written by a job with one version of a
 * record and restored by a job with another. Each version is compiled here into its own class loader;
 * the snapshot and restore go through the heap backend as a savepoint would.
 */
class EvolvingStateExamplesTest {
    private static final KeyGroupRange ALL = new KeyGroupRange(0, 127);

    // tag::versions[]
    // the job that took the savepoint
    String before = """
            package plant;
            public record MachineTotal(String machine, int count, double level, Status status) {}
            """;
    // the upgraded job: count widened to long, level removed, unit added, Status gained a constant
    String after = """
            package plant;
            public record MachineTotal(String machine, long count, Status status, String unit) {}
            """;
    // end::versions[]

    String broken = """
            package plant;
            public record MachineTotal(String machine, String count, double level, Status status) {}
            """;

    private static ClassLoader compile(String record, String status) {
        return ClassVersions.compile(Map.of("plant.MachineTotal", record, "plant.Status", status));
    }

    /** A savepoint of one value state "totals" of operator "sum", holding a MachineTotal of the old job. */
    private static byte[][] savepointOfOldJob(ClassLoader old) throws Exception {
        return withContextLoader(old, () -> {
            HeapKeyedStateBackend backend = new HeapKeyedStateBackend("sum", ALL, 128, new ManualClock(0));
            ValueState<Object> totals = backend.stateStore().getState(new ValueStateDescriptor<>("totals"));
            backend.setCurrentKey("press-1");
            totals.update(ClassVersions.record(old, "plant.MachineTotal", "press-1", 41, 0.5,
                    ClassVersions.constant(old, "plant.Status", "RUNNING")));
            KeyedStateSnapshot snapshot = backend.snapshot(1);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            long[] offsets = new long[ALL.size()];
            snapshot.write(out, out::size, offsets);
            snapshot.release();
            byte[] offsetBytes = new byte[offsets.length * 4];
            for (int i = 0; i < offsets.length; i++) {
                java.nio.ByteBuffer.wrap(offsetBytes, 4 * i, 4).putInt((int) offsets[i]);
            }
            return new byte[][] {bytes.toByteArray(), offsetBytes};
        });
    }

    /** Restores the savepoint into the new job's backend and reads "totals" of press-1. */
    private static Object restoreAndRead(byte[][] savepoint, ClassLoader upgraded) throws Exception {
        return withContextLoader(upgraded, () -> {
            HeapKeyedStateBackend backend = new HeapKeyedStateBackend("sum", ALL, 128, new ManualClock(0));
            for (int g = 0; g < ALL.size(); g++) {
                int at = java.nio.ByteBuffer.wrap(savepoint[1], 4 * g, 4).getInt();
                backend.restoreKeyGroup(g, new DataInputStream(new ByteArrayInputStream(savepoint[0], at, savepoint[0].length - at)));
            }
            ValueState<Object> totals = backend.stateStore().getState(new ValueStateDescriptor<>("totals"));
            backend.setCurrentKey("press-1");
            return totals.value();
        });
    }

    @Test
    void compatibleChanges_mapTheStoredValueByFieldName() throws Exception {
        byte[][] savepoint = savepointOfOldJob(compile(before, "package plant; public enum Status { RUNNING, DOWN }"));

        Object total = restoreAndRead(savepoint, compile(after, "package plant; public enum Status { IDLE, RUNNING, DOWN }"));

        assertThat(component(total, "machine")).isEqualTo("press-1");
        assertThat(component(total, "count")).isEqualTo(41L);
        assertThat(component(total, "unit")).isNull();
        assertThat(((Enum<?>) component(total, "status")).name()).isEqualTo("RUNNING");
    }

    @Test
    void anIncompatibleChange_failsTheRestoreNamingStateFieldAndTypes() throws Exception {
        String status = "package plant; public enum Status { RUNNING, DOWN }";
        byte[][] savepoint = savepointOfOldJob(compile(before, status));

        assertThatThrownBy(() -> restoreAndRead(savepoint, compile(broken, status)))
                .isInstanceOf(StateSchemaException.class)
                .hasMessage(
                // tag::incompatible-message[]
                "cannot restore state 'totals' of operator 'sum': field 'count' of record plant.MachineTotal was stored"
                + " as int and is now java.lang.String, which stored values cannot be converted to (allowed: added or"
                + " removed fields, widening such as int -> long or float -> double, boxing). Keep the field's old type"
                + " (add a field with the new type instead), or give the state descriptor a new name so that the state"
                + " starts empty"
                // end::incompatible-message[]
                );
    }
}
