package io.millrace.api.row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Rows: typed access without boxing, kinds, the documented equality and hash, and errors that name the field. */
class RowTest {
    // tag::row[]
    static final RowType READING = RowType.builder()
            .field("machine", FieldType.STRING)
            .field("temperature", FieldType.DOUBLE)
            .nullableField("cycle", FieldType.BIGINT)
            .field("time", FieldType.TIMESTAMP)
            .build();
    // end::row[]

    @Test
    void fieldsReadByPositionAndByName_withTheirTypes() {
        // tag::access[]
        Row r = Row.of(READING, "m03", 21.5, 17L, 1_700_000_000_000L);
        double t = r.getDouble(1);                    // no boxing
        int cycle = READING.index("cycle");           // look a name up once, read by position
        long c = r.getLong(cycle);
        String machine = r.getString("machine");      // by name
        // end::access[]
        assertThat(t).isEqualTo(21.5);
        assertThat(c).isEqualTo(17L);
        assertThat(machine).isEqualTo("m03");
        assertThat(r.getTimestamp(3)).isEqualTo(1_700_000_000_000L);
        assertThat(r.getLong("time")).isEqualTo(1_700_000_000_000L);
        assertThat(r.getField(2)).isEqualTo(17L);
        assertThat(r.kind()).isEqualTo(RowKind.INSERT);
        assertThat(r.toString()).isEqualTo("+I[m03, 21.5, 17, 2023-11-14T22:13:20Z]");
    }

    @Test
    void builderSetsFieldsWithoutBoxing_andIsReusable() {
        // tag::builder[]
        RowBuilder b = Row.builder(READING);
        b.setString(0, "m03").setDouble(1, 21.5).setNull(2).setTimestamp(3, 60_000);
        Row first = b.build();
        Row second = b.setDouble(1, 22.0).build(RowKind.UPDATE_AFTER);
        // end::builder[]
        assertThat(first.toString()).isEqualTo("+I[m03, 21.5, null, 1970-01-01T00:01:00Z]");
        assertThat(second.toString()).isEqualTo("+U[m03, 22.0, null, 1970-01-01T00:01:00Z]");
        assertThat(first.isNullAt(2)).isTrue();
        assertThat(first.isNullAt(1)).isFalse();
    }

    @Test
    void kindIsNotPartOfEquality_soARetractionEqualsTheRowItRetracts() {
        Row inserted = Row.of(READING, "m03", 21.5, null, 0L);
        Row retracted = inserted.withKind(RowKind.UPDATE_BEFORE);
        assertThat(retracted.toString()).startsWith("-U[");
        assertThat(retracted).isEqualTo(inserted).hasSameHashCodeAs(inserted);
        assertThat(retracted.kind()).isEqualTo(RowKind.UPDATE_BEFORE);
        assertThat(inserted.withKind(RowKind.INSERT)).isSameAs(inserted);
        assertThat(Row.of(READING, "m03", 21.6, null, 0L)).isNotEqualTo(inserted);
        assertThat(Row.of(READING, "m03", 21.5, 0L, 0L)).isNotEqualTo(inserted); // null differs from 0
    }

    @Test
    void doublesCompareLikeDoubleEquals() {
        RowType t = RowType.builder().field("v", FieldType.DOUBLE).field("f", FieldType.FLOAT).build();
        assertThat(Row.of(t, Double.NaN, Float.NaN)).isEqualTo(Row.of(t, 0.0 / 0.0, 0f / 0f));
        assertThat(Row.of(t, 0.0, 0f)).isNotEqualTo(Row.of(t, -0.0, 0f));
    }

    @Test
    void rowsOfDifferentTypesAreNotEqual_evenWithEqualValues() {
        RowType other = RowType.builder().field("id", FieldType.STRING).build();
        RowType renamed = RowType.builder().field("name", FieldType.STRING).build();
        assertThat(Row.of(other, "a")).isNotEqualTo(Row.of(renamed, "a"));
        assertThat(Row.of(other, "a")).isEqualTo(Row.of(RowType.builder().field("id", FieldType.STRING).build(), "a"));
    }

    @Test
    void hashIsTheListHashOfTheBoxedValues_forRandomRows() {
        RowType t = RowType.builder().nullableField("b", FieldType.BOOLEAN).nullableField("i", FieldType.INT)
                .nullableField("l", FieldType.BIGINT).nullableField("f", FieldType.FLOAT).nullableField("d", FieldType.DOUBLE)
                .nullableField("s", FieldType.STRING).nullableField("t", FieldType.TIMESTAMP).build();
        Random random = new Random(32);
        for (int n = 0; n < 1_000; n++) {
            List<Object> values = new ArrayList<>();
            values.add(random.nextBoolean());
            values.add(random.nextInt());
            values.add(random.nextLong());
            values.add(random.nextFloat());
            values.add(random.nextGaussian());
            values.add("s" + random.nextInt(100));
            values.add(random.nextLong());
            for (int i = 0; i < values.size(); i++) {
                if (random.nextInt(5) == 0) {
                    values.set(i, null);
                }
            }
            Row r = Row.of(t, values.toArray());
            assertThat(r.hashCode()).isEqualTo(values.hashCode());
            for (int i = 0; i < values.size(); i++) {
                assertThat(r.getField(i)).isEqualTo(values.get(i));
            }
        }
    }

    @Test
    void hashIsFixed_theSameInEveryJvm() {
        // the contract: these values never change
        assertThat(Row.of(READING, "m03", 21.5, 17L, 1_700_000_000_000L).hashCode()).isEqualTo(
                ((((31 + "m03".hashCode()) * 31 + Double.hashCode(21.5)) * 31 + 17) * 31 + Long.hashCode(1_700_000_000_000L)));
        assertThat(Row.of(READING, "m03", 21.5, 17L, 1_700_000_000_000L).hashCode()).isEqualTo(-1_786_456_597);
    }

    @Test
    void manyFields_nullBitsBeyondSixtyFour() {
        RowType.Builder wide = RowType.builder();
        for (int i = 0; i < 70; i++) {
            wide.nullableField("f" + i, i % 2 == 0 ? FieldType.INT : FieldType.STRING);
        }
        RowType t = wide.build();
        Object[] values = new Object[70];
        for (int i = 0; i < 70; i++) {
            values[i] = i == 66 ? null : i % 2 == 0 ? (Object) i : "v" + i;
        }
        Row r = Row.of(t, values);
        assertThat(r.isNullAt(66)).isTrue();
        assertThat(r.isNullAt(2)).isFalse();
        assertThat(r.getInt(68)).isEqualTo(68);
        assertThat(r.getString(69)).isEqualTo("v69");
        assertThat(r.hashCode()).isEqualTo(Arrays.asList(values).hashCode());
    }

    @Test
    void wrongGetterOrNullPrimitive_failsNamingTheField() {
        Row r = Row.of(READING, "m03", 21.5, null, 0L);
        assertThatThrownBy(() -> r.getLong(1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("field 'temperature' (1)").hasMessageContaining("is DOUBLE, not BIGINT");
        assertThatThrownBy(() -> r.getLong("cycle")).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("field 'cycle' (2)").hasMessageContaining("isNullAt");
        assertThatThrownBy(() -> r.getDouble("pressure")).hasMessageContaining("no field 'pressure' in ROW<machine STRING NOT NULL");
    }

    @Test
    void valuesThatDoNotFit_failNamingTheField() {
        assertThatThrownBy(() -> Row.of(READING, "m03", 21, null, 0L)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("field 'temperature'").hasMessageContaining("takes a Double, not the java.lang.Integer 21");
        assertThatThrownBy(() -> Row.of(READING, null, 21.5, null, 0L))
                .hasMessageContaining("field 'machine'").hasMessageContaining("NOT NULL");
        assertThatThrownBy(() -> Row.of(READING, "m03", 21.5)).hasMessageContaining("2 values for the 4 fields");
        assertThatThrownBy(() -> Row.builder(READING).setString(0, "m03").build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("field 'temperature' (1)").hasMessageContaining("was not set");
        assertThatThrownBy(() -> RowType.builder().field("a", FieldType.INT).field("a", FieldType.STRING))
                .hasMessageContaining("two fields named 'a'");
    }

    @Test
    void rowTypePrintsItsFields() {
        assertThat(READING.toString()).isEqualTo("ROW<machine STRING NOT NULL, temperature DOUBLE NOT NULL, cycle BIGINT, time TIMESTAMP NOT NULL>");
        assertThat(READING.names()).containsExactly("machine", "temperature", "cycle", "time");
        assertThat(READING.indexOf("pressure")).isEqualTo(-1);
    }

    @Test
    void kindsAndTypesHaveStableCodes() {
        for (RowKind k : RowKind.values()) {
            assertThat(RowKind.ofCode(k.code())).isEqualTo(k);
        }
        assertThat(RowKind.DELETE.code()).isEqualTo((byte) 3);
        assertThat(FieldType.TIMESTAMP.code()).isEqualTo((byte) 6);
        assertThat(RowKind.UPDATE_BEFORE.isRetraction()).isTrue();
        assertThat(RowKind.UPDATE_AFTER.isAddition()).isTrue();
        assertThatThrownBy(() -> RowKind.ofCode(4)).hasMessageContaining("no row kind has code 4");
    }

    @Test
    void javaSerializationKeepsFieldsAndKind() throws Exception {
        Row r = Row.ofKind(RowKind.DELETE, READING, "m03", 21.5, null, 5L);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(r);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            Row back = (Row) in.readObject();
            assertThat(back).isEqualTo(r);
            assertThat(back.kind()).isEqualTo(RowKind.DELETE);
            assertThat(back.getString(0)).isEqualTo("m03");
        }
    }

    @Test
    void datesAndTimes_readAsIntsOrByTheirOwnGetters_andPrintAsIsoText() {
        RowType type = RowType.builder().field("day", FieldType.DATE).field("at", FieldType.TIME).build();
        Row row = Row.builder(type).setDate(0, 20_513).setTime(1, 3_723_004).build();
        assertThat(row.getDate(0)).isEqualTo(20_513);
        assertThat(row.getInt(0)).isEqualTo(20_513);
        assertThat(row.getTime(1)).isEqualTo(3_723_004);
        assertThat(row.getField(1)).isEqualTo(3_723_004);
        assertThat(row.toString()).isEqualTo("+I[" + java.time.LocalDate.ofEpochDay(20_513) + ", 01:02:03.004]");
        assertThat(row).isEqualTo(Row.of(type, 20_513, 3_723_004));
        assertThatThrownBy(() -> row.getTime(0)).hasMessageContaining("field 'day' (0)").hasMessageContaining("is DATE, not TIME");
        assertThatThrownBy(() -> Row.builder(type).setTime(1, 86_400_000)).hasMessageContaining("a TIME is 0 to 86399999 ms since midnight");
    }
}
