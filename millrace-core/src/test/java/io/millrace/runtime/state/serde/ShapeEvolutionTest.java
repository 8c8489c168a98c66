package io.millrace.runtime.state.serde;

import static io.millrace.runtime.state.ReadingVersions.READING;
import static io.millrace.runtime.state.ReadingVersions.V1;
import static io.millrace.runtime.state.ReadingVersions.V2;
import static io.millrace.runtime.state.ReadingVersions.readingV1;
import static io.millrace.testing.ClassVersions.component;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Values written with one version of a class, read through a serializer that sees another. */
class ShapeEvolutionTest {
    private final ShapeTable shapes = new ShapeTable();

    private byte[] write(StateSerializer writer, Object value) {
        ByteWriter out = new ByteWriter(64);
        writer.write(value, out);
        return out.toByteArray();
    }

    private static Object read(StateSerializer reader, byte[] bytes) {
        return reader.read(new ByteReader(bytes, 0, bytes.length));
    }

    @Test
    void aValueOfTheSameShape_readsBackEqual_andAnEvolvedOneIsMappedByName() {
        Object v1 = readingV1("press-1", -5, 0.5, "IDLE", "bolt", 0.5f);
        byte[] bytes = write(StateSerializer.forValues(shapes, "s", V1, null), v1);

        assertThat(read(StateSerializer.forValues(shapes, null, V1, null), bytes)).isEqualTo(v1);
        Object v2 = read(StateSerializer.forValues(shapes, null, V2, null), bytes);
        assertThat(v2.getClass().getClassLoader()).isSameAs(V2);
        assertThat(component(v2, "count")).isEqualTo(-5L);
        assertThat(((Enum<?>) component(v2, "status")).name()).isEqualTo("IDLE");
        assertThat(component(((List<?>) component(v2, "parts")).get(0), "weight")).isEqualTo(0.5d);
    }

    @Test
    void aKeyRecordWhoseShapeChanged_cannotBeRead_becauseItsBytesWouldDiffer() {
        byte[] bytes = write(StateSerializer.forKeys(shapes, V1, null), readingV1("press-1", 1, 0.5, "OK", "nut", 1f));

        assertThatThrownBy(() -> read(StateSerializer.forKeys(shapes, V2, "the keys of operator 'op'"), bytes))
                .isInstanceOf(StateSchemaException.class)
                .hasMessageContaining("the keys of operator 'op'")
                .hasMessageContaining("key type " + READING + " changed from record " + READING + "(machine: java.lang.String, count: int");
    }

    @Test
    void aRecordClassThatIsGone_failsNamingIt() {
        byte[] bytes = write(StateSerializer.forValues(shapes, "s", V1, null), readingV1("m", 1, 0.5, "OK", "nut", 1f));
        StateSerializer withoutTheClass = StateSerializer.forValues(shapes, null, getClass().getClassLoader(), "state 's'");

        assertThatThrownBy(() -> read(withoutTheClass, bytes))
                .isInstanceOf(StateSchemaException.class)
                .hasMessageContaining("cannot restore state 's': record " + READING + " is not on the class path any more");
    }

    @Test
    void aRemovedComponentOfARecordThatIsGone_isSkippedWithoutItsClass() {
        record Holder(String name, Object payload) {}
        byte[] bytes = write(StateSerializer.forValues(shapes, "s", V1, null),
                new Holder("h", readingV1("m", 1, 0.5, "OK", "nut", 1f)));
        StateSerializer skipper = StateSerializer.forValues(shapes, null, getClass().getClassLoader(), null);
        ByteReader in = new ByteReader(bytes, 0, bytes.length);

        skipper.skip(in);

        assertThat(in.hasRemaining()).isFalse();
    }
}
