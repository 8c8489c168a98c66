package io.millrace.sql.planner;

import io.millrace.sql.SqlException;
import io.millrace.sql.parser.Lexer;
import io.millrace.sql.parser.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Words that Calcite's parser reserves but Flink's does not, so that Flink SQL uses them as plain identifiers:
 * {@code DATETIME} (Nexmark's {@code dateTime} columns). They are back-quoted, where they stand unquoted, before
 * Calcite parses a query; error positions are mapped back to the text as written.
 */
final class FlinkWords {
    static final Set<String> WORDS = Set.of("DATETIME");

    private FlinkWords() {}

    /** A query's text with the words quoted, and where (line, column of the original text) each was. */
    record Rewritten(String text, List<int[]> quoted) {
        /** The column in the original text of {@code column} of the rewritten text, on {@code line}. */
        int originalColumn(int line, int column) {
            int shift = 0;
            for (int[] q : quoted) {
                if (q[0] == line && column > q[1] + shift) {
                    shift += Math.min(2, column - (q[1] + shift));
                }
            }
            return column - shift;
        }
    }

    static Rewritten quote(String sql) {
        List<Token> tokens;
        try {
            tokens = Lexer.tokenize(sql);
        } catch (SqlException e) {
            return new Rewritten(sql, List.of()); // Calcite reports the problem in its own words
        }
        StringBuilder out = null;
        int copied = 0;
        List<int[]> quoted = new ArrayList<>();
        for (Token t : tokens) {
            if (t.kind() == Token.Kind.WORD && WORDS.contains(t.text().toUpperCase(Locale.ROOT))) {
                if (out == null) {
                    out = new StringBuilder(sql.length() + 8);
                }
                out.append(sql, copied, t.start()).append('`').append(t.text()).append('`');
                copied = t.end();
                quoted.add(new int[] {t.line(), t.column()});
            }
        }
        if (out == null) {
            return new Rewritten(sql, List.of());
        }
        out.append(sql, copied, sql.length());
        return new Rewritten(out.toString(), quoted);
    }
}
