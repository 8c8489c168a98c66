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

    // tag::nested[]
    static final RowType POSITION = RowType.builder()
            .field("x", FieldType.DOUBLE)
            .nullableField("zone", FieldType.STRING)
            .build();
    static final RowType ORDER = RowType.builder()
            .field("id", FieldType.BIGINT)
            .decimalField("price", 10, 2, false)          // DECIMAL(10, 2)
            .nullableField("at", POSITION)                 // ROW<x DOUBLE NOT NULL, zone STRING>
            .build();
    // end::nested[]

    @Test
    void nestedRowsAndDecimals_readWithTheirGetters_printAndCompareByValue() {
        // tag::nestedAccess[]
        Row order = Row.builder(ORDER)
                .setLong(0, 7)
                .setDecimal(1, new java.math.BigDecimal("12.5"))        // stored at the field's scale: 12.50
                .setRow(2, Row.of(POSITION, 3.25, "hall-2"))
                .build();
        java.math.BigDecimal price = order.getDecimal(1);
        String zone = order.getRow(2).getString(1);
        // end::nestedAccess[]
        assertThat(price).isEqualTo(new java.math.BigDecimal("12.50"));
        assertThat(zone).isEqualTo("hall-2");
        assertThat(order.toString()).isEqualTo("+I[7, 12.50, [3.25, hall-2]]");
        assertThat(ORDER.toString()).isEqualTo("ROW<id BIGINT NOT NULL, price DECIMAL(10, 2) NOT NULL, at ROW<x DOUBLE NOT NULL, zone STRING>>");
        assertThat(ORDER.rowType(2)).isEqualTo(POSITION);
        assertThat(ORDER.precision(1)).isEqualTo(10);
        assertThat(ORDER.scale(1)).isEqualTo(2);
        Row same = Row.of(ORDER, 7L, new java.math.BigDecimal("12.500"), Row.ofKind(RowKind.DELETE, POSITION, 3.25, "hall-2"));
        assertThat(same).isEqualTo(order).hasSameHashCodeAs(order); // the nested row's kind is not part of the value
        assertThat(Row.of(ORDER, 7L, new java.math.BigDecimal("12.51"), null)).isNotEqualTo(order);
        assertThat(order.getField(2)).isEqualTo(Row.of(POSITION, 3.25, "hall-2"));
        assertThat(Row.of(ORDER, 7L, java.math.BigDecimal.ONE, null).isNullAt(2)).isTrue();
    }

    @Test
    void hashOfNestedRowsAndDecimals_isTheListHashOfTheBoxedValues() {
        Random random = new Random(9);
        for (int n = 0; n < 500; n++) {
            Row inner = random.nextInt(4) == 0 ? null : Row.of(POSITION, random.nextGaussian(), random.nextBoolean() ? null : "z" + random.nextInt(9));
            java.math.BigDecimal price = java.math.BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, 2);
            List<Object> values = Arrays.asList(random.nextLong(), price, inner);
            Row r = Row.of(ORDER, values.toArray());
            assertThat(r.hashCode()).isEqualTo(values.hashCode());
            if (inner != null) {
                assertThat(inner.hashCode()).isEqualTo(Arrays.asList(inner.getField(0), inner.getField(1)).hashCode());
            }
        }
        // the contract: fixed values, the same in every JVM (BigDecimal's hash is 31 * unscaled hash + scale)
        Row fixed = Row.of(ORDER, 1L, new java.math.BigDecimal("2.00"), Row.of(POSITION, 0.5, null));
        int inner = (31 + Double.hashCode(0.5)) * 31;
        assertThat(fixed.hashCode()).isEqualTo(((31 + 1) * 31 + (31 * 200 + 2)) * 31 + inner);
    }

    @Test
    void nestedRowsAndDecimalsThatDoNotFit_failNamingTheField() {
        RowType other = RowType.builder().field("x", FieldType.DOUBLE).build();
        assertThatThrownBy(() -> Row.builder(ORDER).setRow(2, Row.of(other, 1.0)))
                .hasMessageContaining("field 'at' (2) holds rows of ROW<x DOUBLE NOT NULL, zone STRING>, not of ROW<x DOUBLE NOT NULL>");
        assertThatThrownBy(() -> Row.builder(ORDER).setDecimal(1, new java.math.BigDecimal("123456789.5")))
                .hasMessageContaining("field 'price' (1) is DECIMAL(10, 2) and cannot hold 123456789.5 (more than 8 digits before the point)");
        assertThat(Row.builder(ORDER).setLong(0, 1).setDecimal(1, new java.math.BigDecimal("0.125")).setNull(2).build().getDecimal(1))
                .isEqualTo(new java.math.BigDecimal("0.13")); // rounded half-up
        assertThatThrownBy(() -> RowType.builder().field("p", FieldType.ROW)).hasMessageContaining("field 'p' is a ROW: declare it with field(name, rowType)");
        assertThatThrownBy(() -> RowType.builder().field("p", FieldType.DECIMAL)).hasMessageContaining("declare it with decimalField");
        assertThatThrownBy(() -> RowType.builder().decimalField("p", 39, 0, false)).hasMessageContaining("precision of 1 to 38");
        assertThatThrownBy(() -> Row.of(ORDER, 1L, 2.5, null)).hasMessageContaining("takes a BigDecimal, not the java.lang.Double 2.5");
        assertThatThrownBy(() -> Row.of(ORDER, 1L, java.math.BigDecimal.ONE, null).getRow(1))
                .hasMessageContaining("field 'price' (1)").hasMessageContaining("is DECIMAL, not ROW");
        assertThatThrownBy(() -> ORDER.rowType(1)).hasMessageContaining("is DECIMAL(10, 2), not a ROW");
    }

    @Test
    void rowTypesDifferByNestedTypeOrDecimalScale() {
        RowType a = RowType.builder().decimalField("p", 10, 2, false).build();
        assertThat(RowType.builder().decimalField("p", 10, 2, false).build()).isEqualTo(a).hasSameHashCodeAs(a);
        assertThat(RowType.builder().decimalField("p", 10, 3, false).build()).isNotEqualTo(a);
        RowType other = RowType.builder().field("x", FieldType.DOUBLE).build();
        assertThat(RowType.builder().field("r", other).build()).isNotEqualTo(RowType.builder().field("r", POSITION).build());
        assertThat(FieldType.ROW.code()).isEqualTo((byte) 9);
        assertThat(FieldType.DECIMAL.code()).isEqualTo((byte) 10);
        assertThat(FieldType.ofCode(10)).isEqualTo(FieldType.DECIMAL);
    }

    @Test
    void javaSerializationKeepsNestedRowsAndDecimals() throws Exception {
        Row r = Row.of(ORDER, 3L, new java.math.BigDecimal("99.99"), Row.of(POSITION, -1.0, "z"));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(r);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            Row back = (Row) in.readObject();
            assertThat(back).isEqualTo(r);
            assertThat(back.type().rowType(2)).isEqualTo(POSITION);
        }
    }
}
