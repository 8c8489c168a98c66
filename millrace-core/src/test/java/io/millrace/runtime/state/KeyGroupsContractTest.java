package io.millrace.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The key group of sample keys of every supported type at the default maximum parallelism (128). These values are
 * the contract: savepoints hold state per key group, so they must be the same in every JVM and every version.
 */
class KeyGroupsContractTest {
    enum Line { PRESS, OVEN }

    record Sensor(String machine, int slot, Line line) {}

    @Test
    void sampleKeys_fallIntoFixedKeyGroups() {
        RowType type = RowType.builder().field("machine", FieldType.STRING).field("temperature", FieldType.DOUBLE).build();
        Map<Object, Integer> expected = new LinkedHashMap<>();
        expected.put("m03", 24);
        expected.put("", 0);
        expected.put(42L, 92);
        expected.put(-42L, 24);
        expected.put(7, 68);
        expected.put((short) 3, 39);
        expected.put((byte) 1, 55);
        expected.put('x', 40);
        expected.put(true, 104);
        expected.put(21.5, 76);
        expected.put(1.5f, 39);
        expected.put(Line.PRESS, 38);
        expected.put(Line.OVEN, 16);
        expected.put(new Sensor("m03", 7, Line.OVEN), 93);
        expected.put(Row.of(type, "m03", 21.5), 106);
        expected.put(List.of("m03", 7), 18);
        Map<Object, Integer> actual = new LinkedHashMap<>();
        for (Object key : expected.keySet()) {
            actual.put(key, KeyGroups.keyGroupFor(key, 128));
        }
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void aKeysGroupAtAnotherMaximum_comesFromTheSameHash() {
        assertThat(KeyGroups.keyGroupFor("m03", 100)).isEqualTo(Math.floorMod(KeyGroups.mix("m03".hashCode()), 100));
        assertThat(KeyGroups.keyGroupFor(Line.OVEN, 128)).isEqualTo(KeyGroups.mix("OVEN".hashCode()) & 127);
    }
}
