package io.millrace.connector.file;

import io.millrace.api.row.Row;
import io.millrace.format.CsvRowFormat;
import io.millrace.format.CsvSyntax;
import io.millrace.format.FormatException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * CSV files (RFC 4180 quoting, configurable delimiter) read as {@link CsvRow}s, or as any type through
 * {@link #map}. The column names come from each file's header row ({@link #withHeader}) or are given
 * ({@link #withColumns}, files without a header row). A record whose field count differs from the
 * column count is a bad record, and so is a row its mapper refuses: read a required number with
 * {@link CsvRow#getDouble}/{@link CsvRow#getLong} (an empty field is then a bad record naming the column), an
 * optional one with {@link CsvRow#getDoubleOrNull}/{@link CsvRow#getLongOrNull}. Immutable.
 *
 * <pre>{@code
 * LineFormat<CsvRow> rows = CsvFormat.withHeader().delimiter(';');
 * LineFormat<Reading> readings = CsvFormat.withHeader()
 *         .map(row -> new Reading(row.get("machine"), row.getDouble("value")));
 * }</pre>
 */
public final class CsvFormat implements LineFormat<CsvRow> {
    private final CsvRow.Columns columns;
    private final CsvSyntax syntax;

    private CsvFormat(CsvRow.Columns columns, CsvSyntax syntax) {
        this.columns = columns;
        this.syntax = syntax;
    }

    /** The first line of every file is a header row that names the columns. */
    public static CsvFormat withHeader() {
        return new CsvFormat(null, CsvSyntax.RFC_4180);
    }

    /** Files have no header row; these are the column names. */
    public static CsvFormat withColumns(String... names) {
        return new CsvFormat(new CsvRow.Columns(Arrays.asList(names)), CsvSyntax.RFC_4180);
    }

    /** The field delimiter (default {@code ,}); neither a quote nor a line break. */
    public CsvFormat delimiter(char value) {
        if (value == '"' || value == '\n' || value == '\r') {
            throw new IllegalArgumentException("option 'delimiter' must not be a quote or a line break, was '" + value + "'");
        }
        return new CsvFormat(columns, CsvSyntax.of(value, '"'));
    }

    /**
     * Typed {@link Row}s, each record read by {@code format} (its delimiter, quote, null literal and column count
     * rule); a field that does not fit its column is a bad record naming the column. {@code withHeader}: the first
     * line of every file is a header that must name the row type's fields in order, else the file cannot be read.
     */
    public static LineFormat<Row> rows(CsvRowFormat format, boolean withHeader) {
        Objects.requireNonNull(format, "format");
        return new LineFormat<>() {
            @Override
            public boolean hasHeader() {
                return withHeader;
            }

            @Override
            public boolean continuesOnNextLine(String partial) {
                return format.syntax().isOpen(partial);
            }

            @Override
            public LineDecoder<Row> open(String file, String header) {
                if (withHeader && header != null) {
                    try {
                        format.checkHeader(header);
                    } catch (FormatException e) {
                        throw new IllegalArgumentException("bad CSV header row in " + file + ": " + e.getMessage(), e);
                    }
                }
                return text -> {
                    try {
                        return format.decode(text);
                    } catch (FormatException e) {
                        throw new BadLineException(e.getMessage());
                    }
                };
            }
        };
    }

    /** Rows mapped to records by {@code mapper}. */
    public <T> LineFormat<T> map(RowMapper<T> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        CsvFormat rows = this;
        return new LineFormat<>() {
            @Override
            public boolean hasHeader() {
                return rows.hasHeader();
            }

            @Override
            public boolean continuesOnNextLine(String partial) {
                return rows.continuesOnNextLine(partial);
            }

            @Override
            public LineDecoder<T> open(String file, String header) {
                LineDecoder<CsvRow> decoder = rows.open(file, header);
                return text -> {
                    CsvRow row = decoder.decode(text);
                    T value;
                    try {
                        value = mapper.map(row);
                    } catch (BadLineException e) {
                        throw e;
                    } catch (CsvRow.BadColumnValue e) {
                        throw new BadLineException(e.getMessage());
                    } catch (Exception e) {
                        throw BadLineException.of(e);
                    }
                    if (value == null) {
                        throw new BadLineException("the row mapper returned null");
                    }
                    return value;
                };
            }
        };
    }

    @Override
    public boolean hasHeader() {
        return columns == null;
    }

    @Override
    public boolean continuesOnNextLine(String partial) {
        return syntax.isOpen(partial);
    }

    @Override
    public LineDecoder<CsvRow> open(String file, String header) {
        CsvRow.Columns names;
        if (columns != null) {
            names = columns;
        } else if (header == null) {
            return text -> {
                throw new BadLineException("no header row");
            };
        } else {
            try {
                names = new CsvRow.Columns(syntax.parse(header));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("bad CSV header row in " + file + ": " + e.getMessage(), e);
            }
        }
        return text -> {
            List<String> fields;
            try {
                fields = syntax.parse(text);
            } catch (FormatException e) {
                throw new BadLineException(e.getMessage());
            }
            if (fields.size() != names.size()) {
                throw new BadLineException("expected " + names.size() + " fields, found " + fields.size()
                        + (fields.size() < names.size()
                                ? ": column '" + names.names().get(fields.size()) + "' is missing"
                                : ": more fields than the columns " + names.names()));
            }
            return new CsvRow(names, fields.toArray(new String[0]));
        };
    }
}
