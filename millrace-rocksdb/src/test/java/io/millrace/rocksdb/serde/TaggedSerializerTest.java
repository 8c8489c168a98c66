package io.millrace.rocksdb.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.window.GlobalWindow;
import io.millrace.api.window.TimeWindow;
import io.millrace.runtime.timer.VoidNamespace;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TaggedSerializerTest {
    private final TaggedSerializer values = TaggedSerializer.values();
    private final TaggedSerializer keys = TaggedSerializer.canonical();

    record Reading(String sensor, long time, double value, boolean ok, Status status, List<Integer> tags) {}

    record Nested(Reading reading, int[] counts, Map<String, Long> totals) {}

    enum Status {
        OK,
        FAULT {
            @Override
            public String toString() {
                return "fault";
            }
        }
    }

    private Object roundTrip(TaggedSerializer serializer, Object value) {
        ByteWriter out = new ByteWriter(8);
        serializer.write(value, out);
        ByteReader in = new ByteReader(out.buffer(), 0, out.size());
        Object back = serializer.read(in);
        assertThat(in.hasRemaining()).as("every byte consumed").isFalse();
        ByteReader skipping = new ByteReader(out.buffer(), 0, out.size());
        serializer.skip(skipping);
        assertThat(skipping.hasRemaining()).as("skip moves past exactly one value").isFalse();
        return back;
    }

    private byte[] bytes(TaggedSerializer serializer, Object value) {
        ByteWriter out = new ByteWriter(8);
        serializer.write(value, out);
        return out.toByteArray();
    }

    @Test
    void primitivesStringsAndArrays_roundTripWithTheirTypes() {
        List<Object> samples = Arrays.asList(null, true, false, (byte) -3, (short) 300, 'x', 0, -1, Integer.MIN_VALUE, Long.MAX_VALUE,
                Long.MIN_VALUE, 1.5f, -0.0, Double.NaN, "", "sensor-1", "Grüße ✓", "a\u0000b");
        for (Object v : samples) {
            assertThat(roundTrip(values, v)).isEqualTo(v);
        }
        assertThat((byte[]) roundTrip(values, new byte[] {1, -2, 3})).containsExactly(1, -2, 3);
        assertThat((long[]) roundTrip(values, new long[] {5, -6})).containsExactly(5, -6);
        assertThat((int[]) roundTrip(values, new int[] {7})).containsExactly(7);
        assertThat((double[]) roundTrip(values, new double[] {0.25})).containsExactly(0.25);
    }

    @Test
    void recordsEnumsAndCollections_roundTripEqual() {
        Reading r = new Reading("s1", 42L, 3.5, true, Status.FAULT, List.of(1, 2));
        assertThat(roundTrip(values, r)).isEqualTo(r);
        assertThat(roundTrip(values, Status.FAULT)).isSameAs(Status.FAULT);
        Nested n = new Nested(r, new int[] {1, 2}, new HashMap<>(Map.of("a", 1L, "b", 2L)));
        Nested back = (Nested) roundTrip(values, n);
        assertThat(back.reading()).isEqualTo(r);
        assertThat(back.counts()).containsExactly(1, 2);
        assertThat(back.totals()).isEqualTo(Map.of("a", 1L, "b", 2L));
        LinkedHashMap<String, Integer> ordered = new LinkedHashMap<>();
        ordered.put("z", 1);
        ordered.put("a", 2);
        assertThat(new ArrayList<Object>(((Map<?, ?>) roundTrip(values, ordered)).keySet())).containsExactly("z", "a");
        assertThat(roundTrip(values, new HashSet<>(Set.of(3, 4)))).isEqualTo(Set.of(3, 4));
        assertThat(roundTrip(values, new ArrayList<>(List.of("x", "y")))).isEqualTo(List.of("x", "y"));
        assertThat(roundTrip(values, new TimeWindow(0, 10))).isEqualTo(new TimeWindow(0, 10));
        assertThat(roundTrip(values, VoidNamespace.INSTANCE)).isSameAs(VoidNamespace.INSTANCE);
    }

    @Test
    void otherSerializableTypes_fallBackToJavaSerialization() {
        assertThat(roundTrip(values, new BigDecimal("12.345"))).isEqualTo(new BigDecimal("12.345"));
        assertThat(roundTrip(values, GlobalWindow.INSTANCE)).isSameAs(GlobalWindow.INSTANCE);
    }

    @Test
    void unserializableType_isRefusedNamingTheClass() {
        assertThatThrownBy(() -> bytes(values, new Object()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.Object");
    }

    @Test
    void equalKeys_giveEqualBytes_whateverTheMapOrSetOrder() {
        Map<String, Integer> a = new HashMap<>();
        Map<String, Integer> b = new LinkedHashMap<>();
        for (int i = 0; i < 50; i++) {
            a.put("k" + i, i);
        }
        for (int i = 49; i >= 0; i--) {
            b.put("k" + i, i);
        }
        assertThat(bytes(keys, Map.copyOf(a))).isEqualTo(bytes(keys, new HashMap<>(b)));
        assertThat(bytes(keys, Set.of(1, 2, 3))).isEqualTo(bytes(keys, new HashSet<>(List.of(3, 2, 1))));
        assertThat(bytes(keys, new Reading("s", 1, 2, true, Status.OK, List.of())))
                .isEqualTo(bytes(keys, new Reading("s", 1, 2, true, Status.OK, new ArrayList<>())));
    }

    @Test
    void noEncodingIsAPrefixOfAnother_soKeysCanBeFollowedBySubKeys() {
        Random random = new Random(5);
        List<byte[]> encodings = new ArrayList<>();
        List<Object> seen = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            Object v = switch (random.nextInt(5)) {
                case 0 -> (long) random.nextInt(1000) - 500;
                case 1 -> "s" + random.nextInt(100);
                case 2 -> random.nextInt(300);
                case 3 -> List.of(random.nextInt(3), "x".repeat(random.nextInt(3)));
                default -> {
                    long start = random.nextInt(5);
                    yield new TimeWindow(start, start + 1 + random.nextInt(5));
                }
            };
            if (!seen.contains(v)) {
                seen.add(v);
                encodings.add(bytes(keys, v));
            }
        }
        for (byte[] x : encodings) {
            for (byte[] y : encodings) {
                if (x != y && x.length <= y.length) {
                    assertThat(Arrays.equals(x, 0, x.length, y, 0, x.length)).isFalse();
                }
            }
        }
    }

    @Test
    void recordStoredWithAnotherShape_failsNamingTheRecordAndItsComponents() {
        ByteWriter out = new ByteWriter(16);
        out.writeByte(TaggedSerializer.RECORD);
        byte[] name = TimeWindow.class.getName().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeVarInt(name.length);
        out.write(name);
        out.writeVarInt(3);
        assertThatThrownBy(() -> values.read(new ByteReader(out.buffer(), 0, out.size())))
                .hasMessageContaining(TimeWindow.class.getName())
                .hasMessageContaining("3 components")
                .hasMessageContaining("[start, end]");
    }

    @Test
    void typeDescription_namesRecordComponentsAndEnumConstants() {
        assertThat(TypeDescription.of(TimeWindow.class)).isEqualTo("record io.millrace.api.window.TimeWindow(start: long, end: long)");
        assertThat(TypeDescription.of(Status.class)).endsWith("Status {OK, FAULT}");
        assertThat(TypeDescription.of(String.class)).isEqualTo("java.lang.String");
    }
}
