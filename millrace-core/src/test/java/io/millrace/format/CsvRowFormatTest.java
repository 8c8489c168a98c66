package io.millrace.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CsvRowFormatTest {
    static final RowType ALL = JsonRowFormatTest.ALL;
    static final RowType READING = RowType.builder().field("machine", FieldType.STRING).field("at", FieldType.TIMESTAMP)
            .field("celsius", FieldType.DOUBLE).nullableField("note", FieldType.STRING).build();

    @Test
    void randomRows_roundTrip_withEveryDelimiterQuoteAndNullLiteral() {
        Random random = new Random(7);
        CsvRowFormat[] formats = {CsvRowFormat.of(ALL), CsvRowFormat.of(ALL).delimiter(';').quote('\''),
                CsvRowFormat.of(ALL).delimiter('\t').nullLiteral("\\N"), CsvRowFormat.of(ALL).nullLiteral("NULL")};
        for (CsvRowFormat format : formats) {
            for (int k = 0; k < 2_000; k++) {
                Row row = Row.of(ALL, random.nextBoolean(), random.nextInt(), random.nextLong(), random.nextFloat() * 1e6f - 5e5f,
                        random.nextDouble() * 1e9 - 5e8, text(random), random.nextLong() >>> 20,
                        random.nextBoolean() ? null : random.nextGaussian(), random.nextInt(3) == 0 ? null : text(random));
                assertThat(format.decode(format.encode(row))).as("%s via %s", row, format.syntax()).isEqualTo(row);
            }
        }
    }

    @Test
    void randomRowsOfSpecialStrings_roundTrip() {
        Random random = new Random(11);
        String[] pieces = {",", "\"", "'", "\n", "\r\n", "NULL", "", " ", "é", "\\N"};
        RowType strings = RowType.builder().nullableField("a", FieldType.STRING).field("b", FieldType.STRING).build();
        CsvRowFormat format = CsvRowFormat.of(strings).nullLiteral("NULL");
        for (int k = 0; k < 2_000; k++) {
            StringBuilder s = new StringBuilder();
            for (int j = random.nextInt(4); j > 0; j--) {
                s.append(pieces[random.nextInt(pieces.length)]);
            }
            Row row = Row.of(strings, random.nextBoolean() ? null : s.toString(), s.toString());
            assertThat(format.decode(format.encode(row))).isEqualTo(row);
        }
    }

    @Test
    void writesRfc4180_quotingOnlyWhereNeeded() {
        CsvRowFormat format = CsvRowFormat.of(READING);
        assertThat(text(format.encode(Row.of(READING, "m03", 1_000L, 71.5, null)))).isEqualTo("m03,1000,71.5,");
        assertThat(text(format.encode(Row.of(READING, "a,b", 1L, 2.0, "say \"hi\"\n")))).isEqualTo("\"a,b\",1,2.0,\"say \"\"hi\"\"\n\"");
        assertThat(text(format.encode(Row.of(READING, "m", 1L, 2.0, "")))).as("an empty string is not null").isEqualTo("m,1,2.0,\"\"");
        assertThat(format.header()).isEqualTo("machine,at,celsius,note");
    }

    @Test
    void reads_quotedFields_isoTimestamps_trailingLineBreak_andEmptyAsNull() {
        CsvRowFormat format = CsvRowFormat.of(READING);
        Row row = format.decode(bytes("\"m,03\",2026-12-03T10:15:30.250Z,7e1,\r\n"));
        assertThat(row.getString(0)).isEqualTo("m,03");
        assertThat(row.getTimestamp(1)).isEqualTo(java.time.Instant.parse("2026-12-03T10:15:30.250Z").toEpochMilli());
        assertThat(row.getDouble(2)).isEqualTo(70.0);
        assertThat(row.isNullAt(3)).isTrue();
        assertThat(format.decode(bytes("m,1,2,\"\"")).getString(3)).isEmpty();
        assertThat(format.nullLiteral("-").decode(bytes("m,1,2,")).getString(3)).as("with another null literal, empty is a string").isEmpty();
    }

    @Test
    void badInput_namesTheColumnThePositionAndWhatWasFound() {
        CsvRowFormat format = CsvRowFormat.of(READING);
        assertThatThrownBy(() -> format.decode(bytes("m03,1000,hot,x"))).isInstanceOf(FormatException.class)
                .hasMessage("column 3 'celsius' (DOUBLE) at character 10: 'hot' is not a number");
        assertThatThrownBy(() -> format.decode(bytes("m03,yesterday,1,x")))
                .hasMessage("column 2 'at' (TIMESTAMP) at character 5: 'yesterday' is neither milliseconds since the epoch nor an ISO-8601 instant");
        assertThatThrownBy(() -> format.decode(bytes(",1,1,x"))).hasMessage("column 1 'machine' (STRING) at character 1 is null (empty) but is NOT NULL");
        assertThatThrownBy(() -> format.decode(bytes("m03,1000,1.5d,x"))).hasMessageContaining("'1.5d' is not a number");
        assertThatThrownBy(() -> format.decode(bytes("m03,1000"))).hasMessage("expected 4 fields, found 2: column 3 'celsius' is missing");
        assertThatThrownBy(() -> format.decode(bytes("m03,1,2,x,y"))).hasMessageContaining("expected 4 fields, found 5: more fields than the columns");
        assertThatThrownBy(() -> format.decode(bytes("\"m03,1,2,x"))).hasMessage("unterminated quoted field 1 (its quote opens at character 1)");
        assertThatThrownBy(() -> format.decode(bytes("m03,1,2,\"x\"y"))).hasMessage("unexpected 'y' at character 12 after the closing quote of field 4");
        assertThatThrownBy(() -> format.decode(new byte[] {'m', (byte) 0xC3, ',', '1'})).hasMessageContaining("not valid UTF-8: bad byte at offset 1");
        assertThatThrownBy(() -> format.decode((byte[]) null)).hasMessageContaining("no bytes (null)");
        RowType ints = RowType.builder().field("i", FieldType.INT).field("ok", FieldType.BOOLEAN).build();
        assertThatThrownBy(() -> CsvRowFormat.of(ints).decode(bytes("3000000000,true")))
                .hasMessage("column 1 'i' (INT) at character 1: '3000000000' is not an integer from -2147483648 to 2147483647");
        assertThatThrownBy(() -> CsvRowFormat.of(ints).decode(bytes("1,yes"))).hasMessage("column 2 'ok' (BOOLEAN) at character 3: 'yes' is not true or false");
    }

    @Test
    void lenientColumnCount_fillsMissingNullableFields_andIgnoresExtraOnes() {
        CsvRowFormat lenient = CsvRowFormat.of(READING).lenientColumnCount();
        assertThat(lenient.decode(bytes("m,1,2")).isNullAt(3)).isTrue();
        assertThat(lenient.decode(bytes("m,1,2,x,y,z")).getString(3)).isEqualTo("x");
        assertThatThrownBy(() -> lenient.decode(bytes("m,1"))).hasMessage("column 3 'celsius' (DOUBLE) is missing but is NOT NULL");
    }

    @Test
    void header_isCheckedColumnByColumn() {
        CsvRowFormat format = CsvRowFormat.of(READING);
        format.checkHeader("machine,at,celsius,note\n");
        assertThatThrownBy(() -> format.checkHeader("machine,at,temp,note"))
                .hasMessageContaining("header column 3: expected 'celsius', found 'temp'");
        assertThatThrownBy(() -> format.checkHeader("machine,at,celsius"))
                .hasMessageContaining("header column 4: expected 'note', found the end of the line");
    }

    @Test
    void fileConnectorReadsTypedRows_throughTheSameFormat() throws Exception {
        var lines = io.millrace.connector.file.CsvFormat.rows(CsvRowFormat.of(READING).delimiter(';'), true);
        assertThat(lines.hasHeader()).isTrue();
        assertThat(lines.continuesOnNextLine("m;1;2;\"open")).isTrue();
        var decoder = lines.open("readings.csv", "machine;at;celsius;note");
        assertThat(decoder.decode("m03;5;71.5;\"a;b\"")).isEqualTo(Row.of(READING, "m03", 5L, 71.5, "a;b"));
        assertThatThrownBy(() -> decoder.decode("m03;5;hot;")).isInstanceOf(io.millrace.connector.file.BadLineException.class)
                .hasMessageContaining("column 3 'celsius' (DOUBLE) at character 7: 'hot' is not a number");
        assertThatThrownBy(() -> lines.open("readings.csv", "machine;at;temp;note"))
                .hasMessageContaining("bad CSV header row in readings.csv: header column 3: expected 'celsius', found 'temp'");
    }

    @Test
    void badOptions_nameTheOption() {
        assertThatThrownBy(() -> CsvRowFormat.of(READING).delimiter('"')).hasMessageContaining("options 'delimiter' and 'quote' must differ");
        assertThatThrownBy(() -> CsvRowFormat.of(READING).quote('\n')).hasMessageContaining("option 'quote'");
        assertThatThrownBy(() -> CsvRowFormat.of(READING).nullLiteral("a,b")).hasMessageContaining("option 'nullLiteral'");
    }

    @Test
    void rawAndByteFormats_decodeStrictUtf8() throws Exception {
        RawRowFormat raw = RawRowFormat.utf8("line");
        assertThat(raw.decode(bytes("héllo")).getString("line")).isEqualTo("héllo");
        assertThat(raw.decode(raw.encode(Row.of(raw.type(), "x,y")))).isEqualTo(Row.of(raw.type(), "x,y"));
        assertThatThrownBy(() -> raw.decode(new byte[] {'a', 'b', (byte) 0xFF})).hasMessage("not valid UTF-8: bad byte at offset 2 of 3");
        assertThat(BytesDecoder.decimalLongs().decode(bytes("-42"))).isEqualTo(-42L);
        assertThatThrownBy(() -> BytesDecoder.decimalLongs().decode(bytes("two"))).hasMessage("not a decimal number: 'two'");
        assertThat(BytesDecoder.utf8().decode(null)).isNull();
        assertThat(BytesEncoder.utf8().encode(42)).isEqualTo(bytes("42"));
    }

    private static String text(Random random) {
        int n = random.nextInt(8);
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < n; i++) {
            String alphabet = ",\"a b\n\r'\\xé;\t";
            s.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return s.toString();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    @Test
    void datesAndTimes_areRefusedUpFront_namingTheField() {
        RowType type = RowType.builder().field("machine", FieldType.STRING).field("day", FieldType.DATE).build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CsvRowFormat.of(type))
                .hasMessageContaining("CSV format: field 'day' is DATE, which has no CSV form yet");
    }

    @Test
    void nestedRowsAndDecimals_areRefusedUpFront_namingTheField() {
        RowType inner = RowType.builder().field("x", FieldType.INT).build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CsvRowFormat.of(RowType.builder().field("pos", inner).build()))
                .hasMessageContaining("CSV format: field 'pos' is ROW<x INT NOT NULL>, which has no CSV form yet");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CsvRowFormat.of(RowType.builder().decimalField("price", 10, 2, true).build()))
                .hasMessageContaining("CSV format: field 'price' is DECIMAL(10, 2), which has no CSV form yet");
    }
}
