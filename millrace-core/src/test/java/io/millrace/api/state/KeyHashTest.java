package io.millrace.api.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The key hash: which types hash how (the same in every JVM), and which are refused with what message. */
class KeyHashTest {
    enum Line { PRESS, OVEN { @Override public String toString() { return "oven"; } } }

    record Sensor(String machine, int slot, Line line) {}

    record Primitives(long l, double d, boolean b, char c, float f, short s, byte y) {}

    record Nested(Sensor sensor, String unit) {}

    record WithArray(String machine, int[] slots) {}

    static final class Plain {
        final String id;

        Plain(String id) {
            this.id = id;
        }
    }

    static final class HashOnly {
        @Override
        public int hashCode() {
            return 1;
        }
    }

    @Test
    void jdkTypes_hashByTheirSpecifiedHashCode() {
        for (Object key : List.of("m03", 42L, -7, (short) 3, (byte) -1, 'x', true, false, 21.5, -0.0, 1.5f, Double.NaN)) {
            assertThat(KeyHash.of(key)).as("%s", key).isEqualTo(key.hashCode());
        }
    }

    @Test
    void enums_hashByName_whateverTheirOrderOrBody() {
        assertThat(KeyHash.of(Line.PRESS)).isEqualTo("PRESS".hashCode());
        assertThat(KeyHash.of(Line.OVEN)).isEqualTo("OVEN".hashCode()); // a constant with a body is a subclass
    }

    @Test
    void records_combineTheirComponentsInOrder_fromZero() {
        int expected = (("m03".hashCode()) * 31 + Integer.hashCode(7)) * 31 + "OVEN".hashCode();
        assertThat(KeyHash.of(new Sensor("m03", 7, Line.OVEN))).isEqualTo(expected);
        assertThat(KeyHash.of(new Sensor(null, 7, null))).isEqualTo((0 * 31 + 7) * 31);
        assertThat(KeyHash.of(new Nested(new Sensor("m03", 7, Line.OVEN), "C"))).isEqualTo(expected * 31 + "C".hashCode());
        Primitives p = new Primitives(5L, 2.5, true, 'q', 0.25f, (short) 9, (byte) 2);
        int h = 0;
        for (Object c : List.of(5L, 2.5, true, 'q', 0.25f, (short) 9, (byte) 2)) {
            h = 31 * h + c.hashCode();
        }
        assertThat(KeyHash.of(p)).isEqualTo(h);
    }

    @Test
    void rowsListsSetsAndMaps_hashByTheirElements() {
        RowType type = RowType.builder().field("machine", FieldType.STRING).field("slot", FieldType.INT).build();
        assertThat(KeyHash.of(Row.of(type, "m03", 7))).isEqualTo(List.of("m03", 7).hashCode());
        assertThat(KeyHash.of(List.of("m03", 7))).isEqualTo(List.of("m03", 7).hashCode());
        assertThat(KeyHash.of(new ArrayList<>(List.of(Line.PRESS, Line.OVEN)))).isEqualTo(List.of("PRESS", "OVEN").hashCode());
        assertThat(KeyHash.of(new LinkedHashSet<>(List.of(Line.PRESS, Line.OVEN)))).isEqualTo("PRESS".hashCode() + "OVEN".hashCode());
        assertThat(KeyHash.of(new TreeMap<>(Map.of("a", Line.PRESS)))).isEqualTo("a".hashCode() ^ "PRESS".hashCode());
        assertThat(KeyHash.of(Set.of(1, 2))).isEqualTo(3);
    }

    @Test
    void classesWithTheirOwnEqualsAndHashCode_useIt() {
        UUID id = new UUID(1, 2);
        assertThat(KeyHash.of(id)).isEqualTo(id.hashCode());
        assertThat(KeyHash.of(BigInteger.TEN)).isEqualTo(BigInteger.TEN.hashCode());
    }

    @Test
    void arrays_areRefused_pointingToListsAndRecords() {
        assertThatThrownBy(() -> KeyHash.of(new int[] {1})).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the array type int[] cannot be a key").hasMessageContaining("use a List (List.of(...)) or a record");
        assertThatThrownBy(() -> KeyHash.of(new String[] {"a"})).hasMessageContaining("java.lang.String[]");
    }

    @Test
    void classesWithoutTheirOwnHash_areRefused_namingTheClass() {
        assertThatThrownBy(() -> KeyHash.of(new Plain("a"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(Plain.class.getName() + " cannot be a key")
                .hasMessageContaining("keeps Object's equals and hashCode")
                .hasMessageContaining("use a record, a String or a number, or give Plain equals and hashCode");
        assertThatThrownBy(() -> KeyHash.of(new HashOnly())).hasMessageContaining("overrides hashCode but not equals");
        assertThatThrownBy(() -> KeyHash.of(List.of(new Plain("a")))).hasMessageContaining(Plain.class.getName() + " cannot be a key");
    }

    @Test
    void recordsWithARefusedComponent_areRefused_namingTheComponent() {
        assertThatThrownBy(() -> KeyHash.of(new WithArray("m03", new int[] {1})))
                .hasMessageContaining(WithArray.class.getName() + " cannot be a key: its component 'slots' is the array type int[]");
    }

    @Test
    void declaredTypes_refuseOnlyWhatNoSubclassCanFix() {
        KeyHash.checkKeyType(String.class, "keyBy");
        KeyHash.checkKeyType(Object.class, "keyBy");
        KeyHash.checkKeyType(Sensor.class, "keyBy");
        KeyHash.checkKeyType(Number.class, "keyBy");
        KeyHash.checkKeyType(List.class, "keyBy");
        assertThatThrownBy(() -> KeyHash.checkKeyType(long[].class, "the key selector of 'readings'"))
                .hasMessageStartingWith("the key selector of 'readings' returns the array type long[], which cannot be a key");
        assertThatThrownBy(() -> KeyHash.checkKeyType(Plain.class, "keyBy")).hasMessageContaining("keeps Object's equals and hashCode");
        assertThatThrownBy(() -> KeyHash.checkKeyType(WithArray.class, "keyBy")).hasMessageContaining("its component 'slots'");
    }
}
