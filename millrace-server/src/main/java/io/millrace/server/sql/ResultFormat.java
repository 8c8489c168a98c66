package io.millrace.server.sql;

import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.List;

/** How the SQL client prints values, rows and tables of rows. */
final class ResultFormat {
    private ResultFormat() {}

    /** Field {@code i} of {@code row} as text: {@code NULL}, timestamps as ISO-8601 instants, dates and times ISO. */
    static String text(Row row, int i) {
        Object v = row.getField(i);
        if (v == null) {
            return "NULL";
        }
        return switch (row.type().type(i)) {
            case TIMESTAMP -> Instant.ofEpochMilli((Long) v).toString();
            case DATE -> LocalDate.ofEpochDay((Integer) v).toString();
            case TIME -> LocalTime.ofNanoOfDay((Integer) v * 1_000_000L).toString();
            default -> String.valueOf(v);
        };
    }

    /** The rows as a boxed table with a header line, like a SQL client prints them; {@code op} adds the kind column. */
    static String table(RowType type, List<Row> rows, boolean op) {
        int columns = type.size() + (op ? 1 : 0);
        String[] header = new String[columns];
        int[] width = new int[columns];
        int c = 0;
        if (op) {
            header[c++] = "op";
        }
        for (int i = 0; i < type.size(); i++) {
            header[c++] = type.name(i);
        }
        for (int i = 0; i < columns; i++) {
            width[i] = header[i].length();
        }
        String[][] cells = new String[rows.size()][columns];
        for (int r = 0; r < rows.size(); r++) {
            Row row = rows.get(r);
            int k = 0;
            if (op) {
                cells[r][k++] = row.kind().shortString();
            }
            for (int i = 0; i < type.size(); i++) {
                cells[r][k++] = text(row, i);
            }
            for (int i = 0; i < columns; i++) {
                width[i] = Math.max(width[i], cells[r][i].length());
            }
        }
        StringBuilder b = new StringBuilder();
        String line = border(width);
        b.append(line).append(cells(header, width)).append(line);
        for (String[] row : cells) {
            b.append(cells(row, width));
        }
        if (rows.size() > 0) {
            b.append(line);
        }
        b.append(rows.size()).append(rows.size() == 1 ? " row" : " rows").append(" in set\n");
        return b.toString();
    }

    static String border(int[] width) {
        StringBuilder b = new StringBuilder("+");
        for (int w : width) {
            b.append("-".repeat(w + 2)).append('+');
        }
        return b.append('\n').toString();
    }

    static String cells(String[] values, int[] width) {
        StringBuilder b = new StringBuilder("|");
        for (int i = 0; i < values.length; i++) {
            b.append(' ').append(values[i]).append(" ".repeat(width[i] - values[i].length())).append(" |");
        }
        return b.append('\n').toString();
    }
}
