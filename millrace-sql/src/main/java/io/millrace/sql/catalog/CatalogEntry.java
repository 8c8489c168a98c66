package io.millrace.sql.catalog;

import java.util.List;

/** Something a query can read by name: a table with a connector, a view, or a stream registered from Java. */
public sealed interface CatalogEntry permits ConnectorTable, ViewDefinition, StreamTable {
    String name();

    /** The columns as a query sees them, in order. */
    List<ColumnInfo> columns();

    /** The event-time attribute (the column with a WATERMARK), or null. */
    String rowtime();
}
