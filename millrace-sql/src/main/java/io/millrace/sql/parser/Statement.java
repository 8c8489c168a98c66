package io.millrace.sql.parser;

import java.util.List;
import java.util.Map;

/** A parsed statement. {@code line} and {@code column} are where it starts in the script. */
public sealed interface Statement {
    int line();

    int column();

    /** A physical column ({@code type} set) or a computed one ({@code expression} set). */
    record Column(String name, TypeSpec type, SqlText expression, int line, int column) {
        public boolean isComputed() {
            return expression != null;
        }
    }

    /** {@code WATERMARK FOR column AS expression}. */
    record Watermark(String column, SqlText expression, int line, int col) {}

    /** {@code CREATE TABLE}. */
    record CreateTable(String name, boolean ifNotExists, List<Column> columns, Watermark watermark, List<String> primaryKey,
            Map<String, String> options, int line, int column) implements Statement {}

    /** {@code CREATE [TEMPORARY] VIEW name AS query}. */
    record CreateView(String name, boolean ifNotExists, boolean temporary, SqlText query, int line, int column) implements Statement {}

    /** {@code DROP TABLE|VIEW [IF EXISTS] name}. */
    record Drop(boolean view, String name, boolean ifExists, int line, int column) implements Statement {}

    /** {@code SHOW TABLES}. */
    record ShowTables(int line, int column) implements Statement {}

    /** {@code DESCRIBE name}. */
    record Describe(String name, int line, int column) implements Statement {}

    /** {@code SET 'key' = 'value'}, or {@code SET} alone (key null) to list what is set. */
    record Set(String key, String value, int line, int column) implements Statement {}

    /** {@code RESET 'key'}, or {@code RESET} alone (key null) to clear everything set. */
    record Reset(String key, int line, int column) implements Statement {}

    /** {@code INSERT INTO table query}. */
    record Insert(String table, SqlText query, int line, int column) implements Statement {}

    /** A query: {@code SELECT}, {@code WITH}, {@code VALUES}. */
    record Query(SqlText query, int line, int column) implements Statement {}

    /** {@code EXPLAIN [PLAN FOR] statement} of a query, an insert or a statement set. */
    record Explain(Statement statement, int line, int column) implements Statement {}

    /** {@code EXECUTE STATEMENT SET BEGIN INSERT ...; INSERT ...; END}: the inserts run as one job. */
    record StatementSet(List<Insert> inserts, int line, int column) implements Statement {}

    /** {@code BEGIN STATEMENT SET}: the session collects the INSERT statements that follow until {@code END}. */
    record BeginStatementSet(int line, int column) implements Statement {}

    /** {@code END}: runs the INSERT statements collected since {@code BEGIN STATEMENT SET} as one job. */
    record EndStatementSet(int line, int column) implements Statement {}
}
