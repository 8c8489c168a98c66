package io.millrace.runtime.state.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.testing.ClassVersions;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Plain classes (no-argument constructor, non-final fields) are written field by field, like records, and evolve like them. */
class PlainClassSerializationTest {

    /** A superclass whose field is written first. */
    static class Device {
        protected String id;
    }

    /** A mutable accumulator of the kind windows keep: private fields, a transient cache, nested instances. */
    static final class Meter extends Device {
        private long count;
        private double sum;
        private int[] recent;
        private List<Meter> parts = new ArrayList<>();
        private transient int cache = 7;

        Meter() {}

        Meter(String id, long count, double sum) {
            this.id = id;
            this.count = count;
            this.sum = sum;
            this.recent = new int[] {1, 2, 3};
        }
    }

    /** Not a plain class: a final field. Serializable, so Java serialization takes it. */
    static final class Frozen implements java.io.Serializable {
        final long at;

        Frozen(long at) {
            this.at = at;
        }
    }

    /** A node that refers to itself. */
    static final class Loop {
        Loop next;
    }

    private final ShapeTable shapes = new ShapeTable();

    private Object roundTrip(Object value, ClassLoader loader) {
        ByteWriter out = new ByteWriter(16);
        StateSerializer.forValues(shapes, "s", getClass().getClassLoader(), null).write(value, out);
        ByteReader in = new ByteReader(out.buffer(), 0, out.size());
        Object read = StateSerializer.forValues(shapes, null, loader, null).read(in);
        assertThat(in.hasRemaining()).isFalse();
        return read;
    }

    @Test
    void aPlainClass_roundTripsFieldByField_withItsSuperclassFieldsAndNestedInstances_butNotItsTransientOnes() {
        Meter m = new Meter("press-1", 42, 3.5);
        m.parts.add(new Meter("spindle", 7, 0.25));
        m.cache = 99;

        Meter read = (Meter) roundTrip(m, getClass().getClassLoader());

        assertThat(read.id).isEqualTo("press-1");
        assertThat(read.count).isEqualTo(42);
        assertThat(read.sum).isEqualTo(3.5);
        assertThat(read.recent).containsExactly(1, 2, 3);
        assertThat(read.parts).singleElement().satisfies(p -> {
            assertThat(p.id).isEqualTo("spindle");
            assertThat(p.count).isEqualTo(7);
        });
        assertThat(read.cache).as("transient: from the no-argument constructor").isEqualTo(7);
        assertThat(shapes.toString()).isNotNull();
        assertThat(PlainClass.is(Meter.class)).isTrue();
    }

    @Test
    void classesWithFinalFieldsOrSerializationHooksOrFromTheJdk_areNotPlain() {
        assertThat(PlainClass.is(Frozen.class)).isFalse();
        assertThat(PlainClass.is(java.util.concurrent.atomic.AtomicLong.class)).isFalse();
        assertThat(PlainClass.is(java.util.Date.class)).isFalse();
        assertThat(PlainClass.is(Device.class)).isTrue();
        assertThat(((Frozen) roundTrip(new Frozen(5), getClass().getClassLoader())).at).isEqualTo(5);
    }

    @Test
    void aCycleOfPlainObjects_failsNamingTheClass_insteadOfOverflowingTheStack() {
        Loop loop = new Loop();
        loop.next = loop;
        StateSerializer writer = StateSerializer.forValues(shapes, "s", getClass().getClassLoader(), null);

        assertThatThrownBy(() -> writer.write(loop, new ByteWriter(16)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(Loop.class.getName())
                .hasMessageContaining("a cycle?");
        Loop shortChain = new Loop();
        shortChain.next = new Loop();
        writer.write(shortChain, new ByteWriter(16)); // the failed write left no depth behind
    }

    static final String METER = "evo.Meter";
    static final ClassLoader V1 = ClassVersions.compile(Map.of(METER,
            "package evo; public class Meter { private String id; private int count; private double level; public Meter() {} }"));
    static final ClassLoader V2 = ClassVersions.compile(Map.of(METER,
            "package evo; public class Meter { private String id; private long count; private String site; public Meter() {} }"));
    static final ClassLoader V3 = ClassVersions.compile(Map.of(METER,
            "package evo; public class Meter { private String id; private String count; public Meter() {} }"));

    private static Object meterV1(String id, int count, double level) throws Exception {
        Object m = Class.forName(METER, true, V1).getDeclaredConstructor().newInstance();
        set(m, "id", id);
        set(m, "count", count);
        set(m, "level", level);
        return m;
    }

    private static void set(Object o, String field, Object value) throws Exception {
        Field f = o.getClass().getDeclaredField(field);
        f.setAccessible(true);
        f.set(o, value);
    }

    private static Object get(Object o, String field) throws Exception {
        Field f = o.getClass().getDeclaredField(field);
        f.setAccessible(true);
        return f.get(o);
    }

    private byte[] writeV1(Object value) {
        ByteWriter out = new ByteWriter(16);
        StateSerializer.forValues(shapes, "meters", V1, null).write(value, out);
        return out.toByteArray();
    }

    @Test
    void aPlainClassThatGainedLostAndWidenedFields_isReadByFieldName() throws Exception {
        byte[] bytes = writeV1(meterV1("m-1", 12, 0.5));

        Object v2 = StateSerializer.forValues(shapes, null, V2, null).read(new ByteReader(bytes, 0, bytes.length));

        assertThat(v2.getClass().getClassLoader()).isSameAs(V2);
        assertThat(get(v2, "id")).isEqualTo("m-1");
        assertThat(get(v2, "count")).isEqualTo(12L);
        assertThat(get(v2, "site")).isNull();
    }

    @Test
    void aPlainClassWhoseFieldChangedTypeIncompatibly_failsNamingTheStateClassFieldAndTypes() throws Exception {
        byte[] bytes = writeV1(meterV1("m-1", 12, 0.5));
        StateSerializer reader = StateSerializer.forValues(shapes, null, V3, "state 'meters' of operator 'totals'");

        assertThatThrownBy(() -> reader.read(new ByteReader(bytes, 0, bytes.length)))
                .isInstanceOf(StateSchemaException.class)
                .hasMessageContaining("state 'meters' of operator 'totals'")
                .hasMessageContaining("field 'count' of class evo.Meter was stored as int and is now java.lang.String");
    }
}
