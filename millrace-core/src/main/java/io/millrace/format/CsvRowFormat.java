package io.millrace.format;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowBuilder;
import io.millrace.api.row.RowType;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Objects;

/**
 * A row as one CSV record (RFC 4180 quoting): the fields of the row type in order, one column each, no header. A
 * message holds one record; a trailing line break is allowed. Immutable; every option returns a new format.
 *
 * <p><b>Reading.</b> Bytes must be UTF-8. A field equal to the null literal (default: the empty field) and not quoted
 * is null, which a NOT NULL column refuses; a quoted field is never null, so {@code ""} is an empty string.
 * {@code BOOLEAN} takes {@code true}/{@code false} in any case; {@code INT} and {@code BIGINT} decimal integers in
 * their range; {@code FLOAT} and {@code DOUBLE} decimal numbers; {@code STRING} any text; {@code TIMESTAMP}
 * milliseconds since the epoch or an ISO-8601 instant. A record with another number of fields than the row type is an
 * error unless the column count is lenient (missing trailing fields are then null, extra ones ignored). Every error
 * is a {@link FormatException} naming the column (position and field name), the character where its field starts and
 * the text found: {@code column 3 'celsius' (DOUBLE) at character 9: 'hot' is not a number}.
 *
 * <p><b>Writing.</b> Every field in order, quoted where it holds the delimiter, the quote or a line break; a null
 * as the null literal; a string that equals the null literal (or is empty) in quotes, so that it reads back as a
 * string; timestamps as milliseconds since the epoch; no line break at the end.
 *
 * <p>{@link #header()} is the line of column names, for files: a record-per-message source has no header.
 */
public final class CsvRowFormat implements RowFormat {
    private static final long serialVersionUID = 1L;

    private final RowType type;
    private final CsvSyntax syntax;
    private final String nullLiteral;
    private final boolean strictColumnCount;

    private CsvRowFormat(RowType type, CsvSyntax syntax, String nullLiteral, boolean strictColumnCount) {
        this.type = Objects.requireNonNull(type, "type");
        for (int i = 0; i < type.size(); i++) {
            FieldType t = type.type(i);
            if (t == FieldType.DATE || t == FieldType.TIME || t == FieldType.ROW || t == FieldType.DECIMAL) {
                throw new IllegalArgumentException("CSV format: field '" + type.name(i) + "' is " + type.typeName(i) + ", which has no CSV form yet");
            }
        }
        this.syntax = syntax;
        this.nullLiteral = nullLiteral;
        this.strictColumnCount = strictColumnCount;
    }

    /** The CSV format of rows of {@code type}: comma, double quote, the empty field as null, strict column count. */
    public static CsvRowFormat of(RowType type) {
        return new CsvRowFormat(type, CsvSyntax.RFC_4180, "", true);
    }

    /** The field delimiter (default {@code ,}); not a line break nor the quote. */
    public CsvRowFormat delimiter(char value) {
        return new CsvRowFormat(type, CsvSyntax.of(value, syntax.quote()), nullLiteral, strictColumnCount);
    }

    /** The quote character (default {@code "}); not a line break nor the delimiter. */
    public CsvRowFormat quote(char value) {
        return new CsvRowFormat(type, CsvSyntax.of(syntax.delimiter(), value), nullLiteral, strictColumnCount);
    }

    /** The unquoted text that stands for null (default: the empty field), e.g. {@code NULL} or {@code \N}. */
    public CsvRowFormat nullLiteral(String value) {
        Objects.requireNonNull(value, "option 'nullLiteral'");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == syntax.delimiter() || c == syntax.quote() || c == '\n' || c == '\r') {
                throw new IllegalArgumentException("option 'nullLiteral' must not hold the delimiter, the quote or a line break, was '"
                        + value + "'");
            }
        }
        return new CsvRowFormat(type, syntax, value, strictColumnCount);
    }

    /** Accept records with fewer fields (the missing trailing ones are null) or more (the extra ones are ignored). */
    public CsvRowFormat lenientColumnCount() {
        return new CsvRowFormat(type, syntax, nullLiteral, false);
    }

    @Override
    public RowType type() {
        return type;
    }

    public CsvSyntax syntax() {
        return syntax;
    }

    /** The line of column names (the row type's field names), quoted where needed, without a line break. */
    public String header() {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < type.size(); i++) {
            if (i > 0) {
                line.append(syntax.delimiter());
            }
            syntax.appendField(line, type.name(i), false);
        }
        return line.toString();
    }

    /**
     * Checks that a header line names the row type's fields in order; fails naming the first column that differs.
     * For sources of files whose first line is a header.
     */
    public void checkHeader(String line) {
        List<String> names = syntax.parse(stripLineBreak(line));
        for (int i = 0; i < Math.max(names.size(), type.size()); i++) {
            String found = i < names.size() ? names.get(i) : null;
            String expected = i < type.size() ? type.name(i) : null;
            if (!Objects.equals(found, expected)) {
                throw new FormatException("header column " + (i + 1) + ": expected " + (expected == null ? "no more columns" : "'" + expected + "'")
                        + ", found " + (found == null ? "the end of the line" : "'" + found + "'") + " (the columns are " + type.names() + ")");
            }
        }
    }

    @Override
    public byte[] encode(Row row) {
        if (!row.type().equals(type)) {
            throw new FormatException("CSV format of " + type + " cannot write a row of " + row.type());
        }
        return encodeToString(row).getBytes(StandardCharsets.UTF_8);
    }

    /** The record of {@code row} as text, as {@link #encode} writes it. */
    public String encodeToString(Row row) {
        StringBuilder line = new StringBuilder(16 * type.size());
        for (int i = 0; i < type.size(); i++) {
            if (i > 0) {
                line.append(syntax.delimiter());
            }
            if (row.isNullAt(i)) {
                line.append(nullLiteral);
            } else if (type.type(i) == FieldType.STRING) {
                String s = row.getString(i);
                syntax.appendField(line, s, s.equals(nullLiteral) || s.isEmpty());
            } else {
                line.append(type.type(i) == FieldType.TIMESTAMP ? String.valueOf(row.getTimestamp(i)) : String.valueOf(row.getField(i)));
            }
        }
        return line.toString();
    }

    @Override
    public Row decode(byte[] bytes) {
        if (bytes == null) {
            throw new FormatException("no bytes (null) where a CSV record of " + type.names() + " was expected");
        }
        return decode(BytesDecoder.Utf8.decode(bytes));
    }

    /** The row of one record's text (a trailing line break is allowed); fails as {@link #decode(byte[])}. */
    public Row decode(String text) {
        String record = stripLineBreak(text);
        RowBuilder row = Row.builder(type);
        int count = syntax.split(record, (i, value, start, quoted) -> {
            if (i < type.size()) {
                set(row, i, value, start, quoted);
            }
        });
        if (count != type.size()) {
            if (strictColumnCount || record.isEmpty()) {
                throw new FormatException("expected " + type.size() + " fields, found " + count
                        + (count < type.size() ? ": column " + (count + 1) + " '" + type.name(count) + "' is missing"
                                : ": more fields than the columns " + type.names()));
            }
            for (int i = count; i < type.size(); i++) {
                setNull(row, i, -1, "is missing");
            }
        }
        return row.build();
    }

    private void set(RowBuilder row, int i, String value, int start, boolean quoted) {
        if (!quoted && value.equals(nullLiteral)) {
            setNull(row, i, start, "is null (" + (nullLiteral.isEmpty() ? "empty" : "'" + nullLiteral + "'") + ")");
            return;
        }
        FieldType ft = type.type(i);
        try {
            switch (ft) {
                case STRING -> row.setString(i, value);
                case BOOLEAN -> {
                    if (value.equalsIgnoreCase("true")) {
                        row.setBoolean(i, true);
                    } else if (value.equalsIgnoreCase("false")) {
                        row.setBoolean(i, false);
                    } else {
                        throw bad(i, start, value, "is not true or false");
                    }
                }
                case INT -> row.setInt(i, Integer.parseInt(value));
                case BIGINT -> row.setLong(i, Long.parseLong(value));
                case FLOAT -> row.setFloat(i, Float.parseFloat(number(i, start, value)));
                case DOUBLE -> row.setDouble(i, Double.parseDouble(number(i, start, value)));
                case TIMESTAMP -> row.setTimestamp(i, timestamp(i, start, value));
                default -> throw new FormatException(where(i, start) + ": no CSV form for " + ft);
            }
        } catch (NumberFormatException e) {
            throw bad(i, start, value, ft == FieldType.INT ? "is not an integer from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE
                    : ft == FieldType.BIGINT ? "is not an integer from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE : "is not a number");
        }
    }

    /** Java's parser also takes {@code 1.5d}, {@code 0x1p3} and surrounding blanks; CSV numbers are plain decimals. */
    private String number(int i, int start, String value) {
        for (int k = 0; k < value.length(); k++) {
            char c = value.charAt(k);
            if (!(c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')
                    && !value.equals("NaN") && !value.equals("Infinity") && !value.equals("-Infinity")) {
                throw bad(i, start, value, "is not a number");
            }
        }
        return value;
    }

    private long timestamp(int i, int start, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            try {
                return Instant.parse(value).toEpochMilli();
            } catch (DateTimeParseException e2) {
                throw bad(i, start, value, "is neither milliseconds since the epoch nor an ISO-8601 instant");
            }
        }
    }

    private void setNull(RowBuilder row, int i, int start, String what) {
        if (!type.isNullable(i)) {
            throw new FormatException(where(i, start) + " " + what + " but is NOT NULL");
        }
        row.setNull(i);
    }

    private FormatException bad(int i, int start, String value, String problem) {
        return new FormatException(where(i, start) + ": " + BytesDecoder.Utf8.quoted(value) + " " + problem);
    }

    private String where(int i, int start) {
        return "column " + (i + 1) + " '" + type.name(i) + "' (" + type.type(i) + ")" + (start < 0 ? "" : " at character " + (start + 1));
    }

    private static String stripLineBreak(String text) {
        int n = text.length();
        if (n > 0 && text.charAt(n - 1) == '\n') {
            n--;
            if (n > 0 && text.charAt(n - 1) == '\r') {
                n--;
            }
        }
        return n == text.length() ? text : text.substring(0, n);
    }

    @Override
    public String toString() {
        return "CSV " + type;
    }
}
