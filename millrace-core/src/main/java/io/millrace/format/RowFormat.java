package io.millrace.format;

import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;

/**
 * Rows of one {@link RowType} to bytes and back. Implementations are immutable and thread-safe, and serializable so
 * that they travel with the sources and sinks that use them.
 */
public interface RowFormat extends java.io.Serializable {
    /** The type of the rows this format reads and writes. */
    RowType type();

    /** The bytes of {@code row}'s fields (its kind is not written); fails with {@link FormatException}. */
    byte[] encode(Row row);

    /** An {@link io.millrace.api.row.RowKind#INSERT} row of {@link #type()}; fails with {@link FormatException} naming what is wrong. */
    Row decode(byte[] bytes);
}
