package io.millrace.sql.catalog;

import io.millrace.sql.parser.SqlText;
import java.util.List;

/** A view: its query, and the columns validating it gave. Queries over it plan the query in its place. */
public record ViewDefinition(String name, SqlText query, List<ColumnInfo> columns, String rowtime) implements CatalogEntry {}
