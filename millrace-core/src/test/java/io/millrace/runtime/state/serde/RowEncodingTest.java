package io.millrace.runtime.state.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Rows in state: round trips with type, kind and nulls, canonical keys, skipping, and the versioned layout. */
class RowEncodingTest {
    static final RowType READING = RowType.builder().field("machine", FieldType.STRING).nullableField("temperature", FieldType.DOUBLE)
            .field("ok", FieldType.BOOLEAN).nullableField("slot", FieldType.INT).field("cycle", FieldType.BIGINT)
            .field("ratio", FieldType.FLOAT).field("time", FieldType.TIMESTAMP).build();
    static final RowType KEY = RowType.builder().field("machine", FieldType.STRING).build();

    private final ShapeTable shapes = new ShapeTable();
    private final StateSerializer values = StateSerializer.forValues(shapes, "test", getClass().getClassLoader(), null);
    private final StateSerializer keys = StateSerializer.forKeys(shapes, getClass().getClassLoader(), null);

    private static Row randomRow(Random random) {
        RowKind kind = RowKind.values()[random.nextInt(4)];
        return Row.ofKind(kind, READING, "m" + random.nextInt(50), random.nextBoolean() ? null : random.nextGaussian() * 100,
                random.nextBoolean(), random.nextInt(3) == 0 ? null : random.nextInt(), random.nextLong(), random.nextFloat(),
                random.nextLong() >>> 20);
    }

    private static byte[] bytes(StateSerializer s, Object value) {
        ByteWriter out = new ByteWriter(8);
        s.write(value, out);
        return out.toByteArray();
    }

    @Test
    void randomRows_readBackWithTypeKindAndNulls_andSkipLandsAfterEach() {
        Random random = new Random(37);
        List<Object> written = new ArrayList<>();
        ByteWriter out = new ByteWriter(64);
        RowType other = RowType.builder().field("n", FieldType.INT).build();
        for (int i = 0; i < 500; i++) {
            Object v = i % 7 == 0 ? Row.of(other, i) : i % 11 == 0 ? "between" : randomRow(random); // types alternate
            values.write(v, out);
            written.add(v);
        }
        StateSerializer reader = StateSerializer.forValues(shapes, null, getClass().getClassLoader(), null);
        ByteReader in = new ByteReader(out.buffer(), 0, out.size());
        for (Object expected : written) {
            Object read = reader.read(in);
            assertThat(read).isEqualTo(expected);
            assertThat(read.toString()).isEqualTo(expected.toString()); // the kind too
        }
        assertThat(in.hasRemaining()).isFalse();
        ByteReader skipping = new ByteReader(out.buffer(), 0, out.size());
        for (int i = 0; i < written.size(); i++) {
            reader.skip(skipping);
        }
        assertThat(skipping.hasRemaining()).isFalse();
    }

    @Test
    void rowsInsideRecordsListsAndMaps_roundTrip() {
        Map<String, List<Row>> nested = Map.of("m03", List.of(Row.of(KEY, "m03"), Row.ofKind(RowKind.DELETE, KEY, "m04")));
        Object read = values.read(new ByteReader(bytes(values, nested), 0, bytes(values, nested).length));
        assertThat(read).isEqualTo(nested);
        assertThat(read.toString()).isEqualTo("{m03=[+I[m03], -D[m04]]}");
    }

    @Test
    void asKeys_equalRowsGiveEqualBytes_whateverTheirKind() {
        Row inserted = Row.of(KEY, "m03");
        assertThat(bytes(keys, inserted.withKind(RowKind.UPDATE_BEFORE))).isEqualTo(bytes(keys, inserted));
        assertThat(bytes(keys, Row.of(KEY, "m04"))).isNotEqualTo(bytes(keys, inserted));
        assertThat(bytes(values, inserted.withKind(RowKind.DELETE))).isNotEqualTo(bytes(values, inserted));
    }

    @Test
    void layoutIsTheDocumentedVersionOne() {
        RowType t = RowType.builder().field("m", FieldType.STRING).nullableField("v", FieldType.INT).build();
        byte[] b = bytes(values, Row.ofKind(RowKind.UPDATE_AFTER, t, "a", -1));
        assertThat(b).containsExactly(
                RowEncoding.TAG, 1,                          // tag, version
                9, 2, 1, 'm', 5, 0, 1, 'v', 1, 1,            // type: 9 bytes, 2 fields: "m" STRING not null, "v" INT nullable
                2,                                           // +U
                0,                                           // null bits
                1, 'a', 1);                                  // "a", zig-zag -1
    }

    @Test
    void unknownVersion_failsNamingIt() {
        byte[] b = bytes(values, Row.of(KEY, "m03"));
        b[1] = 9;
        assertThatThrownBy(() -> values.read(new ByteReader(b, 0, b.length)))
                .hasMessageContaining("a stored row has encoding version 9").hasMessageContaining("reads row version 1");
    }

    @Test
    void datesAndTimes_roundTripWithTheirTypes() {
        RowType type = RowType.builder().field("day", FieldType.DATE).nullableField("at", FieldType.TIME).field("n", FieldType.INT).build();
        Random random = new Random(5);
        StateSerializer reader = StateSerializer.forValues(shapes, null, getClass().getClassLoader(), null);
        for (int k = 0; k < 300; k++) {
            Row row = Row.of(type, random.nextInt() >> 8, random.nextBoolean() ? null : random.nextInt(86_400_000), random.nextInt());
            ByteWriter out = new ByteWriter(16);
            values.write(row, out);
            Row read = (Row) reader.read(new ByteReader(out.buffer(), 0, out.size()));
            assertThat(read).isEqualTo(row);
            assertThat(read.type().type(0)).isEqualTo(FieldType.DATE);
            assertThat(read.type().type(1)).isEqualTo(FieldType.TIME);
        }
    }

    static final RowType POSITION = RowType.builder().field("x", FieldType.DOUBLE).nullableField("zone", FieldType.STRING).build();
    static final RowType ORDER = RowType.builder().field("id", FieldType.BIGINT).decimalField("price", 10, 2, false)
            .nullableField("at", POSITION).decimalField("big", 30, 4, true)
            .field("deep", RowType.builder().field("inner", POSITION).field("n", FieldType.INT).build()).build();

    private static Row randomOrder(Random random) {
        Row at = random.nextInt(3) == 0 ? null : Row.of(POSITION, random.nextGaussian(), random.nextBoolean() ? null : "z" + random.nextInt(5));
        java.math.BigDecimal big = random.nextBoolean() ? null
                : new java.math.BigDecimal(new java.math.BigInteger(80, random).subtract(java.math.BigInteger.ONE.shiftLeft(79)), 4);
        Row deep = Row.of(ORDER.rowType(4), Row.of(POSITION, random.nextDouble(), null), random.nextInt());
        return Row.ofKind(RowKind.values()[random.nextInt(4)], ORDER, random.nextLong(),
                java.math.BigDecimal.valueOf(random.nextLong() % 10_000_000_000L, 2), at, big, deep);
    }

    @Test
    void nestedRowsAndDecimals_roundTrip_skip_andAsKeysGiveEqualBytesForEqualRows() {
        Random random = new Random(71);
        List<Row> written = new ArrayList<>();
        ByteWriter out = new ByteWriter(64);
        for (int i = 0; i < 400; i++) {
            Row r = randomOrder(random);
            values.write(r, out);
            written.add(r);
        }
        StateSerializer reader = StateSerializer.forValues(shapes, null, getClass().getClassLoader(), null);
        ByteReader in = new ByteReader(out.buffer(), 0, out.size());
        for (Row expected : written) {
            Row read = (Row) reader.read(in);
            assertThat(read).isEqualTo(expected);
            assertThat(read.toString()).isEqualTo(expected.toString());
            assertThat(read.type()).isEqualTo(ORDER);
        }
        assertThat(in.hasRemaining()).isFalse();
        ByteReader skipping = new ByteReader(out.buffer(), 0, out.size());
        for (int i = 0; i < written.size(); i++) {
            reader.skip(skipping);
        }
        assertThat(skipping.hasRemaining()).isFalse();
        Row r = written.get(0);
        Row equal = Row.ofKind(RowKind.DELETE, ORDER, r.getLong(0), r.getDecimal(1).setScale(5), r.getField(2), r.getField(3), r.getField(4));
        assertThat(bytes(keys, equal)).isEqualTo(bytes(keys, r));
    }

    @Test
    void nestedRowAndDecimalLayout_isTheDocumentedOne() {
        RowType inner = RowType.builder().field("a", FieldType.INT).build();
        RowType t = RowType.builder().field("r", inner).decimalField("d", 5, 2, false).build();
        byte[] b = bytes(values, Row.of(t, Row.of(inner, 3), new java.math.BigDecimal("-1.50")));
        assertThat(b).containsExactly(
                RowEncoding.TAG, 1,                          // tag, version
                16, 2,                                       // type: 16 bytes, 2 fields
                1, 'r', 9, 0, 1, 1, 'a', 1, 0,               // "r" ROW not null, of 1 field: "a" INT not null
                1, 'd', 10, 0, 5, 2,                         // "d" DECIMAL(5, 2) not null
                0,                                           // +I
                6,                                           // r: a = 3 (zig-zag)
                (byte) 0xAB, 2);                             // d: unscaled -150, zig-zag 299 as a varint
    }
}
