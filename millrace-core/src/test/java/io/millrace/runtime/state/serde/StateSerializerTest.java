package io.millrace.runtime.state.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.window.GlobalWindow;
import io.millrace.api.window.TimeWindow;
import io.millrace.runtime.state.serde.VoidNamespace;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StateSerializerTest {
    record Point(long x, double y, int z, boolean flag, char c, byte b, short s, float f) {}

    record Nested(String name, Point point, List<Object> items, long[] counts, Kind kind, Map<String, Long> totals) {}

    enum Kind {
        PLAIN,
        SPECIAL {
            @Override
            public String toString() {
                return "special";
            }
        }
    }

    /** A Serializable class without a fast path. */
    static final class Legacy implements java.io.Serializable {
        final int n;

        Legacy(int n) {
            this.n = n;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Legacy l && l.n == n;
        }

        @Override
        public int hashCode() {
            return n;
        }
    }

    private final ShapeTable shapes = new ShapeTable();
    private final StateSerializer values = StateSerializer.forValues(shapes, "test", getClass().getClassLoader(), null);
    private final StateSerializer keys = StateSerializer.forKeys(shapes, getClass().getClassLoader(), null);

    /** Writes the values one after another and reads them back with a fresh serializer; skip must agree. */
    private List<Object> roundTrip(StateSerializer writer, Object... items) {
        ByteWriter out = new ByteWriter(8);
        for (Object v : items) {
            writer.write(v, out);
        }
        StateSerializer reader = StateSerializer.forValues(shapes, null, getClass().getClassLoader(), null);
        ByteReader in = new ByteReader(out.buffer(), 0, out.size());
        List<Object> read = new ArrayList<>();
        for (int i = 0; i < items.length; i++) {
            read.add(reader.read(in));
        }
        assertThat(in.hasRemaining()).as("every byte consumed").isFalse();
        ByteReader skipping = new ByteReader(out.buffer(), 0, out.size());
        for (int i = 0; i < items.length; i++) {
            reader.skip(skipping);
        }
        assertThat(skipping.hasRemaining()).as("skip moves past exactly the values").isFalse();
        return read;
    }

    private byte[] bytes(StateSerializer serializer, Object value) {
        ByteWriter out = new ByteWriter(8);
        serializer.write(value, out);
        return out.toByteArray();
    }

    @Test
    void scalarsStringsEnumsRecordsAndJdkSingletons_readBackEqualAndOfTheSameClass() {
        Object[] items = {null, 1, -1, Integer.MIN_VALUE, 2L, Long.MIN_VALUE, 3.5, -0.0, Double.NaN, 4.5f, (short) 300,
                (byte) -7, 'x', true, false, "text ü €", "", "a\u0000b", "x".repeat(70_000), Kind.PLAIN, Kind.SPECIAL,
                new Point(1, 2.5, 3, true, 'c', (byte) 4, (short) 5, 6.5f), new TimeWindow(0, 10), GlobalWindow.INSTANCE,
                VoidNamespace.INSTANCE, new BigDecimal("1.25"), new Legacy(9), TimeUnit.SECONDS};
        List<Object> read = roundTrip(values, items);
        for (int i = 0; i < items.length; i++) {
            assertThat(read.get(i)).isEqualTo(items[i]);
            if (items[i] != null) {
                assertThat(read.get(i).getClass()).isEqualTo(items[i].getClass());
            }
        }
        assertThat(read.get(20)).isSameAs(Kind.SPECIAL);
        assertThat(read.get(23)).isSameAs(GlobalWindow.INSTANCE);
    }

    @Test
    void arraysOfEveryPrimitiveTypeAndOfObjects_readBackWithTheirContents() {
        Object[] items = {new byte[] {1, -2}, new int[] {3, 4}, new long[] {Long.MIN_VALUE, 5}, new double[] {0.5, Double.NaN},
                new float[] {1.5f}, new short[] {7}, new char[] {'a', 'b'}, new boolean[] {true, false},
                new Object[] {"a", 1L, null, new long[] {2}}, new String[] {"x", "y"}, new long[0]};
        List<Object> read = roundTrip(values, items);
        for (int i = 0; i < items.length; i++) {
            assertThat(read.get(i).getClass()).isEqualTo(items[i].getClass());
            assertThat(Arrays.deepEquals(new Object[] {read.get(i)}, new Object[] {items[i]})).as("array %s", i).isTrue();
        }
    }

    @Test
    void collectionsAndMaps_keepTheirClassOrderAndNestedRecords() {
        Nested nested = new Nested("n", new Point(1, 2, 3, false, 'q', (byte) 0, (short) 0, 0f),
                new ArrayList<>(List.of("a", 2L)), new long[] {4, 5}, Kind.SPECIAL, new HashMap<>(Map.of("t", 1L)));
        Object[] items = {new ArrayList<>(List.of(1L, "two", nested)), new LinkedList<>(List.of(3)),
                new HashSet<>(List.of("a", "b")), new LinkedHashSet<>(List.of("z", "a")), new TreeSet<>(List.of(5, 1)),
                new ArrayDeque<>(List.of(1.5)), new HashMap<>(Map.of("k", new Point(0, 0, 0, true, 'a', (byte) 1, (short) 2, 3f))),
                new LinkedHashMap<>(Map.of(1L, List.of())), new TreeMap<>(Map.of("b", 2, "a", 1)),
                new TreeSet<>(Comparator.reverseOrder()), List.of(1, 2), Map.of("i", 1), Set.of("s"), List.of(1, 2, 3),
                Map.of("a", 1, "b", 2)};
        List<Object> read = roundTrip(values, items);
        for (int i = 0; i < items.length; i++) {
            assertThat(read.get(i).getClass()).as("class of %s", i).isEqualTo(items[i].getClass());
        }
        Nested back = (Nested) ((List<?>) read.get(0)).get(2);
        assertThat(back.name()).isEqualTo("n");
        assertThat(back.point()).isEqualTo(nested.point());
        assertThat(back.items()).isEqualTo(nested.items());
        assertThat(back.counts()).containsExactly(4, 5);
        assertThat(back.kind()).isSameAs(Kind.SPECIAL);
        assertThat(back.totals()).isEqualTo(Map.of("t", 1L));
        assertThat(new ArrayList<Object>((java.util.Collection<?>) read.get(3))).containsExactly("z", "a");
        assertThat(new ArrayList<Object>((ArrayDeque<?>) read.get(5))).containsExactly(1.5);
        assertThat(read.subList(1, 5)).isEqualTo(Arrays.asList(items).subList(1, 5));
        assertThat(read.subList(6, 9)).isEqualTo(Arrays.asList(items).subList(6, 9));
        assertThat(((TreeSet<?>) read.get(9)).comparator()).isNotNull();
        assertThat(read.subList(10, 15)).isEqualTo(Arrays.asList(items).subList(10, 15));
    }

    @Test
    void otherJdkWrappers_comeBackAsPlainCollectionsWithTheSameContents() {
        List<Object> read = roundTrip(values, Collections.unmodifiableList(new ArrayList<>(List.of(1))), Arrays.asList("a", null),
                Collections.singletonMap("k", 1), Collections.emptySet(), new ArrayList<>(Arrays.asList(1, null)).stream().toList());
        assertThat(read.get(0)).isEqualTo(List.of(1)).isInstanceOf(ArrayList.class);
        assertThat(read.get(1)).isEqualTo(Arrays.asList("a", null));
        assertThat(read.get(2)).isEqualTo(Map.of("k", 1)).isInstanceOf(HashMap.class);
        assertThat(read.get(3)).isEqualTo(Set.of());
        assertThat(read.get(4)).isEqualTo(Arrays.asList(1, null));
    }

    @Test
    void aValueThatIsNeitherSupportedNorSerializable_failsNamingItsClass() {
        assertThatThrownBy(() -> bytes(values, new ArrayList<>(List.of(new Object()))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot serialize java.lang.Object");
    }

    @Test
    void aRecordShape_isRecordedOnceInTheDictionary_andValuesCarryOnlyItsId() {
        ByteWriter out = new ByteWriter(8);
        for (int i = 0; i < 1000; i++) {
            values.write(new TimeWindow(i, i + 1), out);
        }
        assertThat(shapes.size()).isEqualTo(1);
        assertThat(shapes.find(StoredShape.ofFields(TimeWindow.class).id()).describe())
                .isEqualTo("record io.millrace.api.window.TimeWindow(start: long, end: long)");
        assertThat(bytes(values, new TimeWindow(1, 2))).hasSize(1 + 4 + 1 + 1);
        assertThat(StoredShape.ofEnum(Kind.class).describe()).endsWith("Kind {PLAIN, SPECIAL}");
        assertThat(StoredShape.decode(StoredShape.ofFields(Nested.class).encoded())).isEqualTo(StoredShape.ofFields(Nested.class));
    }

    @Test
    void aValueWhoseShapeIsNotInTheDictionary_failsSayingSo() {
        byte[] written = bytes(values, new TimeWindow(1, 2));
        StateSerializer other = StateSerializer.forValues(new ShapeTable(), null, getClass().getClassLoader(), "state 'w'");

        assertThatThrownBy(() -> other.read(new ByteReader(written, 0, written.length)))
                .hasMessageContaining("state 'w'")
                .hasMessageContaining("schema dictionary does not hold");
    }

    @Test
    void equalKeys_giveEqualBytes_whateverTheCollectionClassOrOrder() {
        Map<String, Integer> a = new HashMap<>();
        Map<String, Integer> b = new LinkedHashMap<>();
        for (int i = 0; i < 50; i++) {
            a.put("k" + i, i);
        }
        for (int i = 49; i >= 0; i--) {
            b.put("k" + i, i);
        }
        assertThat(bytes(keys, Map.copyOf(a))).isEqualTo(bytes(keys, new HashMap<>(b))).isEqualTo(bytes(keys, new TreeMap<>(b)));
        assertThat(bytes(keys, Set.of(1, 2, 3))).isEqualTo(bytes(keys, new HashSet<>(List.of(3, 2, 1))));
        assertThat(bytes(keys, new Nested("s", null, List.of(), null, Kind.PLAIN, Map.of())))
                .isEqualTo(bytes(keys, new Nested("s", null, new LinkedList<>(), null, Kind.PLAIN, new HashMap<>())));
    }

    @Test
    void noKeyEncodingIsAPrefixOfAnother_soKeysCanBeFollowedBySubKeys() {
        Random random = new Random(5);
        List<byte[]> encodings = new ArrayList<>();
        List<Object> seen = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            Object v = switch (random.nextInt(6)) {
                case 0 -> (long) random.nextInt(1000) - 500;
                case 1 -> "s" + random.nextInt(100);
                case 2 -> random.nextInt(300);
                case 3 -> List.of(random.nextInt(3), "x".repeat(random.nextInt(3)));
                case 4 -> random.nextBoolean() ? Kind.PLAIN : Kind.SPECIAL;
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
    void randomNestedValues_roundTripEqual_inBothModes() {
        Random random = new Random(42);
        for (int i = 0; i < 2000; i++) {
            Object v = RandomValues.next(random, 4);
            assertThat(roundTrip(values, v).get(0)).as("value %s: %s", i, v).isEqualTo(v);
            assertThat(roundTrip(keys, v).get(0)).as("key %s: %s", i, v).isEqualTo(v);
        }
    }
}
