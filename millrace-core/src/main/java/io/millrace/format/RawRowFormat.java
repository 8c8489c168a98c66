package io.millrace.format;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import java.nio.charset.StandardCharsets;

/**
 * A message's whole payload as one {@code STRING NOT NULL} field: strict UTF-8 text, nothing parsed. For topics of
 * free text (log lines, barcodes) that a later step splits up. Bytes that are not UTF-8 are a {@link FormatException}
 * with the offset of the first bad byte. Immutable.
 */
public final class RawRowFormat implements RowFormat {
    private static final long serialVersionUID = 1L;
    private final RowType type;

    private RawRowFormat(String field) {
        this.type = RowType.builder().field(field, FieldType.STRING).build();
    }

    /** The payload as the text of the one field {@code field}. */
    public static RawRowFormat utf8(String field) {
        return new RawRowFormat(field);
    }

    @Override
    public RowType type() {
        return type;
    }

    @Override
    public byte[] encode(Row row) {
        if (!row.type().equals(type)) {
            throw new FormatException("raw format of " + type + " cannot write a row of " + row.type());
        }
        return row.getString(0).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public Row decode(byte[] bytes) {
        if (bytes == null) {
            throw new FormatException("field '" + type.name(0) + "': no bytes (null) where text was expected");
        }
        return Row.of(type, BytesDecoder.Utf8.decode(bytes));
    }

    @Override
    public String toString() {
        return "raw UTF-8 " + type;
    }
}
