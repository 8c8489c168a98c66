package io.millrace.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import io.millrace.api.state.ListState;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Rows as keys, map keys and values of keyed state, through a snapshot restored at another parallelism: every row
 * comes back equal, with its kind and nulls, in the subtask that owns its key group. Subclasses create the backend.
 */
public abstract class RowStateContractTest extends BackendContract {
    static final RowType KEY = RowType.builder().field("machine", FieldType.STRING).field("line", FieldType.INT).build();
    static final RowType READING = RowType.builder().field("sensor", FieldType.STRING).nullableField("value", FieldType.DOUBLE)
            .field("time", FieldType.TIMESTAMP).build();

    private static final class Expected {
        final Map<Row, Row> latest = new HashMap<>();
        final Map<Row, Map<Row, Row>> bySensor = new HashMap<>();
        final Map<Row, List<Row>> history = new HashMap<>();
    }

    @Test
    public void rowKeysAndValues_surviveASnapshotRestoredIntoTwoSubtasks() throws Exception {
        KeyedStateBackend source = backend(new KeyGroupRange(0, 127), 128, new ManualClock(0));
        Random random = new Random(41);
        Expected expected = new Expected();
        write(source, random, expected);
        SnapshotImage image = SnapshotImage.take(source);

        List<KeyedStateBackend> restored = new ArrayList<>();
        for (int subtask = 0; subtask < 2; subtask++) {
            KeyedStateBackend b = backend(KeyGroups.rangeFor(subtask, 128, 2), 128, new ManualClock(0));
            image.restoreInto(b);
            restored.add(b);
        }
        int checked = 0;
        for (Row key : expected.latest.keySet()) {
            KeyedStateBackend owner = restored.get(KeyGroups.subtaskFor(KeyGroups.keyGroupFor(key, 128), 128, 2));
            owner.setCurrentKey(key);
            ValueState<Row> latest = owner.stateStore().getState(new ValueStateDescriptor<>("latest"));
            MapState<Row, Row> bySensor = owner.stateStore().getMapState(new MapStateDescriptor<>("by-sensor"));
            ListState<Row> history = owner.stateStore().getListState(new ListStateDescriptor<>("history"));
            assertThat(latest.value().toString()).isEqualTo(expected.latest.get(key).toString());
            Map<Row, Row> sensors = new HashMap<>();
            for (Map.Entry<Row, Row> e : bySensor.entries()) {
                sensors.put(e.getKey(), e.getValue());
            }
            assertThat(sensors).isEqualTo(expected.bySensor.get(key));
            List<String> printed = new ArrayList<>();
            history.get().forEach(r -> printed.add(r.toString()));
            assertThat(printed).isEqualTo(expected.history.get(key).stream().map(Row::toString).toList());
            checked++;
        }
        assertThat(checked).isEqualTo(expected.latest.size()).isGreaterThan(20);
    }

    private static void write(KeyedStateBackend backend, Random random, Expected expected) {
        ValueState<Row> latest = backend.stateStore().getState(new ValueStateDescriptor<>("latest"));
        MapState<Row, Row> bySensor = backend.stateStore().getMapState(new MapStateDescriptor<>("by-sensor"));
        ListState<Row> history = backend.stateStore().getListState(new ListStateDescriptor<>("history"));
        for (int i = 0; i < 400; i++) {
            Row key = Row.of(KEY, "m" + random.nextInt(30), random.nextInt(2));
            Row reading = Row.ofKind(RowKind.values()[random.nextInt(4)], READING, "s" + random.nextInt(3),
                    random.nextInt(4) == 0 ? null : random.nextDouble(), (long) i * 1_000);
            backend.setCurrentKey(key);
            latest.update(reading);
            Row sensor = Row.of(KEY, reading.getString(0), 0);
            bySensor.put(sensor, reading);
            history.add(reading);
            expected.latest.put(key, reading);
            expected.bySensor.computeIfAbsent(key, k -> new HashMap<>()).put(sensor, reading);
            expected.history.computeIfAbsent(key, k -> new ArrayList<>()).add(reading);
        }
    }
}
