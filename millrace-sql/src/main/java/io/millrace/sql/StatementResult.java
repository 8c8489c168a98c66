package io.millrace.sql;

import io.millrace.api.JobResult;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import java.util.List;

/**
 * What a statement gave: a short message ({@code OK}, {@code Table 't' created}), and for statements with rows
 * (queries, {@code SHOW TABLES}, {@code DESCRIBE}, {@code EXPLAIN}, {@code SET}) the rows and their type; for an
 * {@code INSERT} run to its end, the job's result.
 */
public record StatementResult(String message, RowType type, List<Row> rows, JobResult job) {
    static StatementResult ok(String message) {
        return new StatementResult(message, null, List.of(), null);
    }

    /** The rows, one per line, like {@code +I[m01, 3]}. */
    public String rowsText() {
        StringBuilder b = new StringBuilder();
        for (Row r : rows) {
            b.append(r).append('\n');
        }
        return b.toString();
    }
}
