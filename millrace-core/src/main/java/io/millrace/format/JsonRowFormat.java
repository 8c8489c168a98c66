package io.millrace.format;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowBuilder;
import io.millrace.api.row.RowType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.util.Objects;

/**
 * A row as one JSON object, a property per field by the field's name:
 * {@code {"machine":"m03","celsius":71.5,"at":1733222400000}}.
 *
 * <p><b>Reading.</b> The bytes must hold exactly one JSON object (UTF-8). Properties the row type does not name are
 * ignored. A field that is missing or {@code null} is null in the row if the field is nullable, and an error naming
 * the field otherwise. {@code BOOLEAN} takes {@code true}/{@code false}; {@code INT} and {@code BIGINT} take
 * integral numbers in their range; {@code FLOAT} and {@code DOUBLE} take any number; {@code STRING} takes a string;
 * {@code TIMESTAMP} takes milliseconds since the epoch or an ISO-8601 instant ({@code "2026-12-03T10:15:30.250Z"}).
 * {@code DATE} and {@code TIME} are ISO-8601 strings both ways ({@code "2026-12-03"}, {@code "10:15:30.250"}).
 * {@code DECIMAL} takes a number or a string holding one, rounded half-up to the field's scale, and fails when it
 * has too many digits for the precision. A {@code ROW} field is a nested JSON object read by the same rules.
 * Anything else is a {@link FormatException} naming the field, what was expected and what was found.
 *
 * <p><b>Writing.</b> Every field in order; nulls as {@code null}; timestamps as milliseconds since the epoch;
 * decimals as plain numbers ({@code 12.50}, never in exponent notation); nested rows as nested objects.
 */
public final class JsonRowFormat implements RowFormat {
    private static final long serialVersionUID = 1L;
    private static final JsonFactory JSON = new JsonFactory();

    private final RowType type;
    /** Per field, the format of a ROW field's nested objects, else null. */
    private final JsonRowFormat[] nested;

    private JsonRowFormat(RowType type) {
        this.type = Objects.requireNonNull(type, "type");
        this.nested = new JsonRowFormat[type.size()];
        for (int i = 0; i < type.size(); i++) {
            if (type.type(i) == FieldType.ROW) {
                nested[i] = new JsonRowFormat(type.rowType(i));
            }
        }
    }

    /** The JSON format of rows of {@code type}. */
    public static JsonRowFormat of(RowType type) {
        return new JsonRowFormat(type);
    }

    @Override
    public RowType type() {
        return type;
    }

    @Override
    public byte[] encode(Row row) {
        if (!row.type().equals(type)) {
            throw new FormatException("JSON format of " + type + " cannot write a row of " + row.type());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(32 + 16 * type.size());
        try (JsonGenerator g = JSON.createGenerator(out)) {
            writeObject(g, row);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private void writeObject(JsonGenerator g, Row row) throws IOException {
        g.writeStartObject();
        for (int i = 0; i < type.size(); i++) {
            g.writeFieldName(type.name(i));
            if (row.isNullAt(i)) {
                g.writeNull();
                continue;
            }
            switch (type.type(i)) {
                case BOOLEAN -> g.writeBoolean(row.getBoolean(i));
                case INT -> g.writeNumber(row.getInt(i));
                case BIGINT -> g.writeNumber(row.getLong(i));
                case TIMESTAMP -> g.writeNumber(row.getTimestamp(i));
                case FLOAT -> g.writeNumber(row.getFloat(i));
                case DOUBLE -> g.writeNumber(row.getDouble(i));
                case STRING -> g.writeString(row.getString(i));
                case DATE -> g.writeString(LocalDate.ofEpochDay(row.getDate(i)).toString());
                case TIME -> g.writeString(LocalTime.ofNanoOfDay(row.getTime(i) * 1_000_000L).toString());
                case DECIMAL -> g.writeNumber(row.getDecimal(i).toPlainString());
                case ROW -> nested[i].writeObject(g, row.getRow(i));
            }
        }
        g.writeEndObject();
    }

    @Override
    public Row decode(byte[] bytes) {
        if (bytes == null) {
            throw new FormatException("no bytes (null) where a JSON object of " + type + " was expected");
        }
        Row row;
        try (JsonParser p = JSON.createParser(bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new FormatException("expected a JSON object of " + type.names() + ", found " + describe(p.currentToken()));
            }
            row = readObject(p);
            if (p.nextToken() != null) {
                throw new FormatException("trailing content after the JSON object");
            }
        } catch (JsonProcessingException e) {
            throw new FormatException("malformed JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return row;
    }

    /** Reads the object whose start the parser is at, to its end. */
    private Row readObject(JsonParser p) throws IOException {
        RowBuilder row = Row.builder(type);
        boolean[] seen = new boolean[type.size()];
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            int i = type.indexOf(name);
            if (i < 0) {
                p.skipChildren();
                continue;
            }
            seen[i] = true;
            if (value == JsonToken.VALUE_NULL) {
                setNull(row, i, "is null");
            } else {
                read(p, value, row, i);
            }
        }
        for (int i = 0; i < seen.length; i++) {
            if (!seen[i]) {
                setNull(row, i, "is missing");
            }
        }
        return row.build();
    }

    private void setNull(RowBuilder row, int i, String what) {
        if (!type.isNullable(i)) {
            throw new FormatException("field '" + type.name(i) + "' " + what + " but is NOT NULL (" + type.typeName(i) + ")");
        }
        row.setNull(i);
    }

    private void read(JsonParser p, JsonToken t, RowBuilder row, int i) throws IOException {
        FieldType ft = type.type(i);
        switch (ft) {
            case BOOLEAN -> {
                if (t != JsonToken.VALUE_TRUE && t != JsonToken.VALUE_FALSE) {
                    throw mismatch(i, "true or false", p, t);
                }
                row.setBoolean(i, t == JsonToken.VALUE_TRUE);
            }
            case INT -> {
                if (t != JsonToken.VALUE_NUMBER_INT || p.getNumberType() != JsonParser.NumberType.INT) {
                    throw mismatch(i, "an integer from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE, p, t);
                }
                row.setInt(i, p.getIntValue());
            }
            case BIGINT -> row.setLong(i, longValue(p, t, i));
            case TIMESTAMP -> {
                if (t == JsonToken.VALUE_STRING) {
                    try {
                        row.setTimestamp(i, Instant.parse(p.getText()).toEpochMilli());
                    } catch (DateTimeParseException e) {
                        throw mismatch(i, "milliseconds since the epoch or an ISO-8601 instant", p, t);
                    }
                } else {
                    row.setTimestamp(i, longValue(p, t, i));
                }
            }
            case FLOAT, DOUBLE -> {
                if (t != JsonToken.VALUE_NUMBER_INT && t != JsonToken.VALUE_NUMBER_FLOAT) {
                    throw mismatch(i, "a number", p, t);
                }
                if (ft == FieldType.FLOAT) {
                    row.setFloat(i, p.getFloatValue());
                } else {
                    row.setDouble(i, p.getDoubleValue());
                }
            }
            case STRING -> {
                if (t != JsonToken.VALUE_STRING) {
                    throw mismatch(i, "a string", p, t);
                }
                row.setString(i, p.getText());
            }
            case DATE, TIME -> {
                if (t != JsonToken.VALUE_STRING) {
                    throw mismatch(i, ft == FieldType.DATE ? "a date string yyyy-MM-dd" : "a time string HH:mm[:ss[.SSS]]", p, t);
                }
                try {
                    if (ft == FieldType.DATE) {
                        row.setDate(i, (int) LocalDate.parse(p.getText()).toEpochDay());
                    } else {
                        row.setTime(i, (int) (LocalTime.parse(p.getText()).toNanoOfDay() / 1_000_000L));
                    }
                } catch (DateTimeParseException e) {
                    throw mismatch(i, ft == FieldType.DATE ? "a date string yyyy-MM-dd" : "a time string HH:mm[:ss[.SSS]]", p, t);
                }
            }
            case DECIMAL -> {
                java.math.BigDecimal d;
                if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
                    d = p.getDecimalValue();
                } else if (t == JsonToken.VALUE_STRING) {
                    try {
                        d = new java.math.BigDecimal(p.getText().trim());
                    } catch (NumberFormatException e) {
                        throw mismatch(i, "a number", p, t);
                    }
                } else {
                    throw mismatch(i, "a number", p, t);
                }
                try {
                    row.setDecimal(i, d);
                } catch (IllegalArgumentException e) {
                    throw mismatch(i, "a number of at most " + (type.precision(i) - type.scale(i)) + " digits before the point", p, t);
                }
            }
            case ROW -> {
                if (t != JsonToken.START_OBJECT) {
                    throw mismatch(i, "an object of " + type.rowType(i).names(), p, t);
                }
                try {
                    row.setRow(i, nested[i].readObject(p));
                } catch (FormatException e) {
                    throw new FormatException("field '" + type.name(i) + "': " + e.getMessage());
                }
            }
        }
    }

    private long longValue(JsonParser p, JsonToken t, int i) throws IOException {
        if (t != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            throw mismatch(i, "an integer from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE, p, t);
        }
        return p.getLongValue();
    }

    private FormatException mismatch(int i, String expected, JsonParser p, JsonToken t) throws IOException {
        String found = t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY ? describe(t)
                : t == JsonToken.VALUE_STRING ? "the string \"" + p.getText() + "\"" : describe(t) + " " + p.getText();
        return new FormatException("field '" + type.name(i) + "' (" + type.typeName(i) + ") expects " + expected + ", found " + found);
    }

    private static String describe(JsonToken t) {
        if (t == null) {
            return "nothing";
        }
        return switch (t) {
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "the number";
            case VALUE_TRUE, VALUE_FALSE -> "the boolean";
            case START_ARRAY -> "an array";
            case START_OBJECT -> "an object";
            default -> t.asString() == null ? t.name() : t.asString();
        };
    }

    @Override
    public String toString() {
        return "JSON " + type;
    }
}
