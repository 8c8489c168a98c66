package io.millrace.sql.catalog;

import io.millrace.api.DataStream;
import io.millrace.api.row.Row;
import java.util.List;

/**
 * A {@link DataStream} of rows registered under a name ({@code SqlSession.fromDataStream}); its records keep their
 * timestamps and watermarks, and {@code rowtime} (if not null) names the column that holds the record timestamps.
 */
public record StreamTable(String name, DataStream<Row> stream, List<ColumnInfo> columns, String rowtime) implements CatalogEntry {}
