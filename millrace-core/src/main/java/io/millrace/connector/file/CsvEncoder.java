package io.millrace.connector.file;

import io.millrace.format.CsvSyntax;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Writes records as CSV lines with a header row, quoting fields per RFC 4180 where needed (lines end
 * with LF). Fields are {@code String.valueOf} of the values, null as an empty field. Immutable.
 *
 * <pre>{@code
 * CsvEncoder<Reading> byHand = CsvEncoder.of(List.of("machine", "value"), r -> List.of(r.machine(), r.value()));
 * CsvEncoder<Reading> byRecord = CsvEncoder.ofRecord(Reading.class);
 * }</pre>
 */
public final class CsvEncoder<T> implements LineEncoder<T> {
    private final List<String> columns;
    private final RowFormatter<T> formatter;
    private final CsvSyntax syntax;

    /** The fields of a record, in column order. */
    @FunctionalInterface
    public interface RowFormatter<T> extends java.io.Serializable {
        List<?> fields(T value) throws Exception;
    }

    private CsvEncoder(List<String> columns, RowFormatter<T> formatter, CsvSyntax syntax) {
        this.columns = columns;
        this.formatter = formatter;
        this.syntax = syntax;
    }

    public static <T> CsvEncoder<T> of(List<String> columns, RowFormatter<T> formatter) {
        CsvRow.Columns checked = new CsvRow.Columns(columns);
        return new CsvEncoder<>(checked.names(), Objects.requireNonNull(formatter, "formatter"), CsvSyntax.RFC_4180);
    }

    /** The components of a Java record, in declaration order, named as declared. */
    public static <R extends Record> CsvEncoder<R> ofRecord(Class<R> type) {
        List<String> names = Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName).toList();
        return new CsvEncoder<>(names, new RecordFields<>(type), CsvSyntax.RFC_4180);
    }

    /** The field delimiter (default {@code ,}); neither a quote nor a line break. */
    public CsvEncoder<T> delimiter(char value) {
        if (value == '"' || value == '\n' || value == '\r') {
            throw new IllegalArgumentException("option 'delimiter' must not be a quote or a line break, was '" + value + "'");
        }
        return new CsvEncoder<>(columns, formatter, CsvSyntax.of(value, '"'));
    }

    @Override
    public String extension() {
        return "csv";
    }

    @Override
    public String header() {
        StringBuilder line = new StringBuilder();
        append(columns, line);
        return line.toString();
    }

    @Override
    public void encode(T value, StringBuilder line) throws Exception {
        List<?> fields = formatter.fields(value);
        if (fields.size() != columns.size()) {
            throw new IllegalArgumentException(
                    "CSV row has " + fields.size() + " fields but the columns are " + columns + ": " + value);
        }
        append(fields, line);
    }

    private void append(List<?> fields, StringBuilder line) {
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                line.append(syntax.delimiter());
            }
            Object field = fields.get(i);
            syntax.appendField(line, field == null ? "" : String.valueOf(field), false);
        }
    }

    /** Reads the components of a record by reflection; the accessors are looked up once per writer. */
    private static final class RecordFields<R extends Record> implements RowFormatter<R> {
        private final Class<R> type;
        private transient volatile Method[] accessors;

        RecordFields(Class<R> type) {
            this.type = type;
        }

        @Override
        public List<?> fields(R value) throws Exception {
            Method[] methods = accessors;
            if (methods == null) {
                methods = Arrays.stream(type.getRecordComponents()).map(RecordComponent::getAccessor).toArray(Method[]::new);
                for (Method m : methods) {
                    m.setAccessible(true);
                }
                accessors = methods;
            }
            List<Object> fields = new ArrayList<>(methods.length);
            for (Method m : methods) {
                fields.add(m.invoke(value));
            }
            return fields;
        }
    }
}
