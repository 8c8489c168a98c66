package io.millrace.server.sql;

import java.util.Locale;

/** How a running query's rows are shown: as the changes they are, or as the table they make. */
public enum ResultMode {
    /** Every change as it comes, with its kind ({@code +I}, {@code -U}, {@code +U}, {@code -D}) in an {@code op} column. */
    CHANGELOG,
    /**
     * The current rows of the result, changes applied: redrawn every second on a terminal that can clear its screen,
     * printed once when the query ends or is stopped on any other.
     */
    TABLE;

    /** {@code changelog}, {@code table}, or Flink's {@code tableau} (a changelog printed as a table). */
    public static ResultMode parse(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "changelog", "tableau" -> CHANGELOG;
            case "table" -> TABLE;
            default -> throw new IllegalArgumentException("result mode '" + text + "' is unknown; accepted: changelog, table, tableau");
        };
    }
}
