package io.millrace.sql.parser;

import io.millrace.sql.SqlException;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a SQL script into {@link Token}s, skipping white space and comments ({@code -- to the end of the line} and
 * {@code /* ... *&#47;}). An unterminated string, quoted identifier or comment fails naming where it starts.
 */
public final class Lexer {
    private final String sql;
    private int pos;
    private int line = 1;
    private int lineStart;

    private Lexer(String sql) {
        this.sql = sql;
    }

    /** The tokens of {@code sql}, ending with one {@link Token.Kind#END} token. */
    public static List<Token> tokenize(String sql) {
        return new Lexer(sql).run();
    }

    private List<Token> run() {
        List<Token> tokens = new ArrayList<>();
        while (true) {
            skipSpaceAndComments();
            if (pos >= sql.length()) {
                tokens.add(new Token(Token.Kind.END, "", pos, pos, line, pos - lineStart + 1));
                return tokens;
            }
            tokens.add(next());
        }
    }

    private Token next() {
        int start = pos;
        int tokLine = line;
        int col = pos - lineStart + 1;
        char c = sql.charAt(pos);
        if (Character.isLetter(c) || c == '_' || c == '$') {
            while (pos < sql.length() && (Character.isLetterOrDigit(sql.charAt(pos)) || sql.charAt(pos) == '_' || sql.charAt(pos) == '$')) {
                pos++;
            }
            return new Token(Token.Kind.WORD, sql.substring(start, pos), start, pos, tokLine, col);
        }
        if (Character.isDigit(c) || c == '.' && pos + 1 < sql.length() && Character.isDigit(sql.charAt(pos + 1))) {
            while (pos < sql.length() && (Character.isDigit(sql.charAt(pos)) || sql.charAt(pos) == '.')) {
                pos++;
            }
            if (pos < sql.length() && (sql.charAt(pos) == 'e' || sql.charAt(pos) == 'E')) {
                pos++;
                if (pos < sql.length() && (sql.charAt(pos) == '+' || sql.charAt(pos) == '-')) {
                    pos++;
                }
                while (pos < sql.length() && Character.isDigit(sql.charAt(pos))) {
                    pos++;
                }
            }
            return new Token(Token.Kind.NUMBER, sql.substring(start, pos), start, pos, tokLine, col);
        }
        if (c == '\'' || c == '`' || c == '"') {
            String text = quoted(c, tokLine, col);
            return new Token(c == '\'' ? Token.Kind.STRING : Token.Kind.QUOTED, text, start, pos, tokLine, col);
        }
        String two = pos + 1 < sql.length() ? sql.substring(pos, pos + 2) : "";
        if (two.equals("<=") || two.equals(">=") || two.equals("<>") || two.equals("!=") || two.equals("||")) {
            pos += 2;
            return new Token(Token.Kind.SYMBOL, two, start, pos, tokLine, col);
        }
        pos++;
        return new Token(Token.Kind.SYMBOL, String.valueOf(c), start, pos, tokLine, col);
    }

    private String quoted(char quote, int tokLine, int col) {
        StringBuilder text = new StringBuilder();
        pos++;
        while (true) {
            if (pos >= sql.length()) {
                String what = quote == '\'' ? "string" : "quoted identifier";
                throw new SqlException("unterminated " + what + ": " + quote + " without a closing " + quote, tokLine, col, sql, null);
            }
            char c = sql.charAt(pos);
            if (c == quote) {
                if (pos + 1 < sql.length() && sql.charAt(pos + 1) == quote) {
                    text.append(quote);
                    pos += 2;
                    continue;
                }
                pos++;
                return text.toString();
            }
            if (c == '\n') {
                line++;
                lineStart = pos + 1;
            }
            text.append(c);
            pos++;
        }
    }

    private void skipSpaceAndComments() {
        while (pos < sql.length()) {
            char c = sql.charAt(pos);
            if (c == '\n') {
                pos++;
                line++;
                lineStart = pos;
            } else if (Character.isWhitespace(c)) {
                pos++;
            } else if (sql.startsWith("--", pos)) {
                while (pos < sql.length() && sql.charAt(pos) != '\n') {
                    pos++;
                }
            } else if (sql.startsWith("/*", pos)) {
                int startLine = line;
                int startCol = pos - lineStart + 1;
                int close = sql.indexOf("*/", pos + 2);
                if (close < 0) {
                    throw new SqlException("unterminated comment: /* without */", startLine, startCol, sql, null);
                }
                for (int i = pos; i < close; i++) {
                    if (sql.charAt(i) == '\n') {
                        line++;
                        lineStart = i + 1;
                    }
                }
                pos = close + 2;
            } else {
                return;
            }
        }
    }
}
