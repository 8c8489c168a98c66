package io.millrace.api.table;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/** Seeded random changelogs of a sensor table, and a strict replay of a changelog into the table it describes. */
final class Changelogs {
    static final RowType SENSOR = RowType.builder().field("sensor", FieldType.STRING).field("machine", FieldType.STRING)
            .field("value", FieldType.BIGINT).build();

    private Changelogs() {}

    /** A valid full changelog of the sensor table (key: sensor) and the table it ends with. */
    record Generated(List<Row> changelog, Map<Object, Row> table) {}

    static Generated random(long seed, int changes, int sensors) {
        Random random = new Random(seed);
        Map<Object, Row> table = new LinkedHashMap<>();
        List<Row> log = new ArrayList<>();
        for (int i = 0; i < changes; i++) {
            String sensor = "s" + random.nextInt(sensors);
            Row old = table.get(sensor);
            Row next = Row.of(SENSOR, sensor, "m" + random.nextInt(5), (long) random.nextInt(100));
            if (old == null) {
                log.add(next);
                table.put(sensor, next);
            } else if (random.nextInt(10) < 6) {
                Row updated = random.nextInt(10) == 0 ? old : next; // now and then an update to an equal row
                log.add(old.withKind(RowKind.UPDATE_BEFORE));
                log.add(updated.withKind(RowKind.UPDATE_AFTER));
                table.put(sensor, updated);
            } else {
                log.add(old.withKind(RowKind.DELETE));
                table.remove(sensor);
            }
        }
        return new Generated(log, table);
    }

    /**
     * Applies a changelog strictly: {@code +I} and {@code +U} of a key not in the table (a {@code +U} comes after the
     * {@code -U} that removed the row), {@code -U} and {@code -D} of the row the table holds. Fails naming the record.
     */
    static Map<Object, Row> replay(List<Row> changelog, Function<Row, Object> key) {
        Map<Object, Row> table = new HashMap<>();
        for (Row r : changelog) {
            Object k = key.apply(r);
            if (r.kind().isAddition()) {
                if (table.putIfAbsent(k, r.withKind(RowKind.INSERT)) != null) {
                    throw new AssertionError(r + " adds key " + k + ", which holds " + table.get(k));
                }
            } else if (!r.equals(table.remove(k))) {
                throw new AssertionError(r + " retracts a row that key " + k + " does not hold");
            }
        }
        return table;
    }
}
