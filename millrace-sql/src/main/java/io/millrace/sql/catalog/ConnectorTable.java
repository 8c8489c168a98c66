package io.millrace.sql.catalog;

import io.millrace.api.row.RowType;
import io.millrace.sql.parser.SqlText;
import java.util.List;
import java.util.Map;

/**
 * A table of {@code CREATE TABLE ... WITH ('connector' = ...)}: physical columns read from or written to the
 * connector ({@code physicalType}), computed columns derived from them on reading, the event-time attribute with its
 * watermark expression, the declared primary key and the connector's options.
 */
public record ConnectorTable(String name, List<ColumnInfo> columns, RowType physicalType, String rowtime, SqlText watermark,
        List<String> primaryKey, Map<String, String> options) implements CatalogEntry {
    public String connector() {
        return options.get("connector");
    }
}
