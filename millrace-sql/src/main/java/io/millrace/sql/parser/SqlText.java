package io.millrace.sql.parser;

/**
 * A piece of a script handed on to another parser (a query, an expression): its text and where it starts in the
 * script, so that positions reported relative to the piece can be turned into positions in the script.
 */
public record SqlText(String text, int line, int column) {
    /** The script line of {@code pieceLine} (1-based) of this piece. */
    public int scriptLine(int pieceLine) {
        return line + pieceLine - 1;
    }

    /** The script column of {@code pieceColumn} on {@code pieceLine} of this piece. */
    public int scriptColumn(int pieceLine, int pieceColumn) {
        return pieceLine == 1 ? column + pieceColumn - 1 : pieceColumn;
    }
}
