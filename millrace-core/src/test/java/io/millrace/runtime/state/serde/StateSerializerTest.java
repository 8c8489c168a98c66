package io.millrace.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.window.GlobalWindow;
import io.millrace.api.window.TimeWindow;
import io.millrace.runtime.timer.VoidNamespace;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StateSerializerTest {
    record Point(long x, double y, int z, boolean flag, char c, byte b, short s, float f) {}

    record Nested(String name, Point point, List<Object> items, long[] counts, Kind kind) {}

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

    /** Writes the values into one section and reads them back with a fresh serializer. */
    private static List<Object> roundTrip(Object... values) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        StateSerializer writer = new StateSerializer();
        for (Object v : values) {
            writer.write(out, v);
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
        StateSerializer reader = new StateSerializer();
        List<Object> read = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            read.add(reader.read(in));
        }
        assertThat(in.available()).isZero();
        return read;
    }

    @Test
    void scalarsStringsEnumsRecordsAndJdkSingletons_readBackEqualAndOfTheSameClass() throws IOException {
        Object[] values = {null, 1, 2L, 3.5, 4.5f, (short) 6, (byte) 7, 'x', true, false, "text ü €", "",
                "x".repeat(70_000), Kind.PLAIN, Kind.SPECIAL, new Point(1, 2.5, 3, true, 'c', (byte) 4, (short) 5, 6.5f),
                new TimeWindow(0, 10), GlobalWindow.INSTANCE, VoidNamespace.INSTANCE, new BigDecimal("1.25"),
                new Legacy(9), TimeUnit.SECONDS};
        List<Object> read = roundTrip(values);
        for (int i = 0; i < values.length; i++) {
            assertThat(read.get(i)).isEqualTo(values[i]);
            if (values[i] != null) {
                assertThat(read.get(i).getClass()).isEqualTo(values[i].getClass());
            }
        }
        assertThat(read.get(14)).isSameAs(Kind.SPECIAL);
        assertThat(read.get(17)).isSameAs(GlobalWindow.INSTANCE);
    }

    @Test
    void arraysOfEveryPrimitiveTypeAndOfObjects_readBackWithTheirContents() throws IOException {
        Object[] values = {new byte[] {1, -2}, new int[] {3, 4}, new long[] {Long.MIN_VALUE, 5}, new double[] {0.5, Double.NaN},
                new float[] {1.5f}, new short[] {7}, new char[] {'a', 'b'}, new boolean[] {true, false},
                new Object[] {"a", 1L, null, new long[] {2}}, new String[] {"x", "y"}, new long[0]};
        List<Object> read = roundTrip(values);
        for (int i = 0; i < values.length; i++) {
            assertThat(read.get(i).getClass()).isEqualTo(values[i].getClass());
            assertThat(Arrays.deepEquals(new Object[] {read.get(i)}, new Object[] {values[i]})).as("array %s", i).isTrue();
        }
    }

    @Test
    void collectionsAndMaps_keepTheirClassOrderAndNestedRecords() throws IOException {
        Nested nested = new Nested("n", new Point(1, 2, 3, false, 'q', (byte) 0, (short) 0, 0f),
                new ArrayList<>(List.of("a", 2L)), new long[] {4, 5}, Kind.SPECIAL);
        Object[] values = {new ArrayList<>(List.of(1L, "two", nested)), new LinkedList<>(List.of(3)),
                new HashSet<>(List.of("a", "b")), new LinkedHashSet<>(List.of("z", "a")), new TreeSet<>(List.of(5, 1)),
                new ArrayDeque<>(List.of(1.5)), new HashMap<>(Map.of("k", new Point(0, 0, 0, true, 'a', (byte) 1, (short) 2, 3f))),
                new LinkedHashMap<>(Map.of(1L, List.of())), new TreeMap<>(Map.of("b", 2, "a", 1)),
                new TreeSet<>(java.util.Comparator.reverseOrder()), List.of(1, 2), Map.of("i", 1)};
        List<Object> read = roundTrip(values);
        for (int i = 0; i < values.length; i++) {
            assertThat(read.get(i).getClass()).as("class of %s", i).isEqualTo(values[i].getClass());
        }
        Nested back = (Nested) ((List<?>) read.get(0)).get(2);
        assertThat(back.name()).isEqualTo("n");
        assertThat(back.point()).isEqualTo(nested.point());
        assertThat(back.items()).isEqualTo(nested.items());
        assertThat(back.counts()).containsExactly(4, 5);
        assertThat(back.kind()).isSameAs(Kind.SPECIAL);
        assertThat(new ArrayList<Object>((java.util.Collection<?>) read.get(3))).containsExactly("z", "a");
        assertThat(new ArrayList<Object>((ArrayDeque<?>) read.get(5))).containsExactly(1.5);
        assertThat(read.get(8)).isEqualTo(values[8]);
        assertThat(read.subList(1, 5)).isEqualTo(Arrays.asList(values).subList(1, 5));
        assertThat(read.subList(6, 8)).isEqualTo(Arrays.asList(values).subList(6, 8));
        assertThat(((TreeSet<?>) read.get(9)).comparator()).isNotNull();
    }

    @Test
    void aValueThatIsNeitherSupportedNorSerializable_failsNamingItsClass() {
        StateSerializer serializer = new StateSerializer();
        DataOutputStream out = new DataOutputStream(new ByteArrayOutputStream());

        assertThatThrownBy(() -> serializer.write(out, new ArrayList<>(List.of(new Object()))))
                .isInstanceOf(NotSerializableException.class)
                .hasMessage("java.lang.Object");
    }
}
