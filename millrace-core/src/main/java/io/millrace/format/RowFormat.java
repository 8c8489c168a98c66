package io.millrace.format;

import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;

/**
 * Rows of one {@link RowType} to bytes and back: {@link JsonRowFormat}, {@link CsvRowFormat}, {@link RawRowFormat},
 * and the Avro format of {@code millrace-format-avro}. A row format is a {@link BytesDecoder} and a
 * {@link BytesEncoder} of rows, so it fits wherever a connector takes those. Implementations are immutable and
 * thread-safe, and serializable so that they travel with the sources and sinks that use them.
 */
public interface RowFormat extends BytesDecoder<Row>, BytesEncoder<Row> {
    /** The type of the rows this format reads and writes. */
    RowType type();

    /** The bytes of {@code row}'s fields (its kind is not written); fails with {@link FormatException}. */
    @Override
    byte[] encode(Row row);

    /**
     * An {@link io.millrace.api.row.RowKind#INSERT} row of {@link #type()}; fails with {@link FormatException} naming
     * the field, where it is and what was found. Null bytes (a Kafka tombstone) are an error too.
     */
    @Override
    Row decode(byte[] bytes);
}
