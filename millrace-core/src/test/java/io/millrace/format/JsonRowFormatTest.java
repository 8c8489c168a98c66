package io.millrace.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class JsonRowFormatTest {
    static final RowType ALL = RowType.builder()
            .field("b", FieldType.BOOLEAN).field("i", FieldType.INT).field("l", FieldType.BIGINT)
            .field("f", FieldType.FLOAT).field("d", FieldType.DOUBLE).field("s", FieldType.STRING)
            .field("t", FieldType.TIMESTAMP).nullableField("n", FieldType.DOUBLE).nullableField("ns", FieldType.STRING)
            .build();
    static final JsonRowFormat FORMAT = JsonRowFormat.of(ALL);

    @Test
    void randomRows_roundTrip() {
        Random random = new Random(42);
        for (int k = 0; k < 2_000; k++) {
            Row row = Row.of(ALL, random.nextBoolean(), random.nextInt(), random.nextLong(), random.nextFloat() * 1e6f - 5e5f,
                    random.nextDouble() * 1e9 - 5e8, text(random), random.nextLong() >>> 20,
                    random.nextBoolean() ? null : random.nextGaussian(), random.nextBoolean() ? null : text(random));
            assertThat(FORMAT.decode(FORMAT.encode(row))).isEqualTo(row);
        }
    }

    @Test
    void writesAnObjectOfNamedFields() {
        Row row = Row.of(ALL, true, 7, 8L, 1.5f, 2.25, "m03", 1_000L, null, "x");
        assertThat(new String(FORMAT.encode(row), StandardCharsets.UTF_8))
                .isEqualTo("{\"b\":true,\"i\":7,\"l\":8,\"f\":1.5,\"d\":2.25,\"s\":\"m03\",\"t\":1000,\"n\":null,\"ns\":\"x\"}");
    }

    @Test
    void readsIsoTimestamps_ignoresUnknownProperties_andMissingNullableFieldsAreNull() {
        Row row = decode("{\"extra\":{\"a\":[1,2]},\"b\":false,\"i\":-3,\"l\":4,\"f\":1,\"d\":2,\"s\":\"\",\"t\":\"2026-12-03T10:15:30.250Z\"}");
        assertThat(row.getTimestamp(6)).isEqualTo(java.time.Instant.parse("2026-12-03T10:15:30.250Z").toEpochMilli());
        assertThat(row.isNullAt(7)).isTrue();
        assertThat(row.isNullAt(8)).isTrue();
        assertThat(row.getDouble(4)).isEqualTo(2.0);
    }

    @Test
    void badInput_namesTheFieldAndTheProblem() {
        String good = "\"b\":true,\"i\":1,\"l\":2,\"f\":1.0,\"d\":2.0,\"s\":\"a\"";
        assertThatThrownBy(() -> decode("{" + good + "}")).isInstanceOf(FormatException.class)
                .hasMessageContaining("field 't' is missing but is NOT NULL (TIMESTAMP)");
        assertThatThrownBy(() -> decode("{" + good + ",\"t\":null}")).hasMessageContaining("field 't' is null but is NOT NULL");
        assertThatThrownBy(() -> decode("{" + good.replace("\"i\":1", "\"i\":3000000000") + ",\"t\":1}"))
                .hasMessageContaining("field 'i' (INT) expects an integer from -2147483648 to 2147483647, found the number 3000000000");
        assertThatThrownBy(() -> decode("{" + good.replace("\"d\":2.0", "\"d\":\"hot\"") + ",\"t\":1}"))
                .hasMessageContaining("field 'd' (DOUBLE) expects a number, found the string \"hot\"");
        assertThatThrownBy(() -> decode("{" + good + ",\"t\":\"yesterday\"}"))
                .hasMessageContaining("field 't' (TIMESTAMP) expects milliseconds since the epoch or an ISO-8601 instant");
        assertThatThrownBy(() -> decode("{" + good + ",\"t\":1} {}")).hasMessageContaining("trailing content");
        assertThatThrownBy(() -> decode("[1]")).hasMessageContaining("expected a JSON object").hasMessageContaining("an array");
        assertThatThrownBy(() -> decode("{\"b\":tru")).hasMessageContaining("malformed JSON").hasMessageNotContaining("Source:");
        assertThatThrownBy(() -> FORMAT.decode(null)).hasMessageContaining("no bytes");
    }

    @Test
    void aRowOfAnotherType_isRefused() {
        RowType other = RowType.builder().field("x", FieldType.INT).build();
        assertThatThrownBy(() -> FORMAT.encode(Row.of(other, 1))).hasMessageContaining("cannot write a row of");
    }

    @Test
    void datesAndTimes_areIsoStringsBothWays_andBadOnesNameTheField() {
        RowType type = RowType.builder().field("day", FieldType.DATE).nullableField("at", FieldType.TIME).build();
        JsonRowFormat json = JsonRowFormat.of(type);
        Row row = json.decode("{\"day\":\"2026-03-01\",\"at\":\"06:02:03.250\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(row.getDate(0)).isEqualTo((int) java.time.LocalDate.of(2026, 3, 1).toEpochDay());
        assertThat(row.getTime(1)).isEqualTo(((6 * 60 + 2) * 60 + 3) * 1000 + 250);
        assertThat(new String(json.encode(row), StandardCharsets.UTF_8)).isEqualTo("{\"day\":\"2026-03-01\",\"at\":\"06:02:03.250\"}");
        Random random = new Random(11);
        for (int k = 0; k < 500; k++) {
            Row r = Row.of(type, random.nextInt(200_000) - 100_000, random.nextBoolean() ? null : random.nextInt(86_400_000));
            assertThat(json.decode(json.encode(r))).isEqualTo(r);
        }
        assertThatThrownBy(() -> json.decode("{\"day\":\"01.03.2026\"}".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("field 'day' (DATE) expects a date string yyyy-MM-dd");
        assertThatThrownBy(() -> json.decode("{\"day\":\"2026-03-01\",\"at\":61}".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("field 'at' (TIME) expects a time string HH:mm[:ss[.SSS]]");
    }

    @Test
    void nestedRowsAreNestedObjects_andDecimalsPlainNumbers_bothWays() {
        RowType position = RowType.builder().field("x", FieldType.DOUBLE).nullableField("zone", FieldType.STRING).build();
        RowType type = RowType.builder().field("id", FieldType.BIGINT).decimalField("price", 10, 2, false)
                .nullableField("at", position).nullableField("tiny", position).build();
        JsonRowFormat json = JsonRowFormat.of(type);
        Row row = json.decode("{\"id\":7,\"price\":12.5,\"at\":{\"x\":3.25,\"zone\":\"hall-2\",\"extra\":[1]},\"tiny\":null}"
                .getBytes(StandardCharsets.UTF_8));
        assertThat(row.getDecimal(1)).isEqualTo(new java.math.BigDecimal("12.50"));
        assertThat(row.getRow(2)).isEqualTo(Row.of(position, 3.25, "hall-2"));
        assertThat(row.isNullAt(3)).isTrue();
        assertThat(new String(json.encode(row), StandardCharsets.UTF_8))
                .isEqualTo("{\"id\":7,\"price\":12.50,\"at\":{\"x\":3.25,\"zone\":\"hall-2\"},\"tiny\":null}");
        assertThat(json.decode("{\"id\":1,\"price\":\"0.001\"}".getBytes(StandardCharsets.UTF_8)).getDecimal(1))
                .isEqualTo(new java.math.BigDecimal("0.00"));
        Random random = new Random(3);
        for (int k = 0; k < 500; k++) {
            Row r = Row.of(type, random.nextLong(), java.math.BigDecimal.valueOf(random.nextInt(), 2),
                    random.nextBoolean() ? null : Row.of(position, random.nextGaussian(), random.nextBoolean() ? null : text(random)),
                    random.nextBoolean() ? null : Row.of(position, 1e-9, "t"));
            assertThat(json.decode(json.encode(r))).isEqualTo(r);
        }
        assertThatThrownBy(() -> json.decode("{\"id\":1,\"price\":123456789}".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("field 'price' (DECIMAL(10, 2)) expects a number of at most 8 digits before the point");
        assertThatThrownBy(() -> json.decode("{\"id\":1,\"price\":1,\"at\":{\"zone\":\"z\"}}".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("field 'at': field 'x' is missing but is NOT NULL");
        assertThatThrownBy(() -> json.decode("{\"id\":1,\"price\":1,\"at\":5}".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("field 'at'").hasMessageContaining("expects an object of [x, zone]");
    }

    private static Row decode(String json) {
        return FORMAT.decode(json.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(Random random) {
        StringBuilder b = new StringBuilder();
        int n = random.nextInt(8);
        for (int i = 0; i < n; i++) {
            b.append(random.nextInt(10) == 0 ? (char) (0x20 + random.nextInt(0x3000)) : (char) ('a' + random.nextInt(26)));
        }
        return b.toString();
    }
}
