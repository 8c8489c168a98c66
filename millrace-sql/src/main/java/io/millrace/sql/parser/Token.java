package io.millrace.sql.parser;

/**
 * One token of SQL text: its kind, its text as written (without quotes for quoted identifiers and strings, with
 * doubled quotes undone), and where it starts and ends in the script (character offsets, 1-based line and column).
 */
public record Token(Kind kind, String text, int start, int end, int line, int column) {
    /** Token kinds. */
    public enum Kind {
        /** An unquoted word: a keyword or an identifier. */
        WORD,
        /** A {@code `back-quoted`} identifier. */
        QUOTED,
        /** A {@code 'single-quoted'} string literal. */
        STRING,
        NUMBER,
        /** Punctuation and operators: {@code ( ) , ; . = < > <= >= <> + - * / ||} and the like. */
        SYMBOL,
        END
    }

    /** True for an unquoted word equal to {@code keyword}, ignoring case. */
    public boolean is(String keyword) {
        return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
    }

    /** True for the symbol {@code symbol}. */
    public boolean isSymbol(String symbol) {
        return kind == Kind.SYMBOL && text.equals(symbol);
    }

    /** How the token reads in an error message. */
    public String describe() {
        return switch (kind) {
            case END -> "the end of the statement";
            case STRING -> "'" + text + "'";
            case QUOTED -> "`" + text + "`";
            default -> "'" + text + "'";
        };
    }
}
