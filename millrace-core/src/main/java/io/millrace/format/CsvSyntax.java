package io.millrace.format;

import java.util.ArrayList;
import java.util.List;

/**
 * The record syntax of RFC 4180 with a configurable delimiter and quote character: a field is either quoted (it
 * may then hold the delimiter, line breaks and doubled quotes) or unquoted (a quote inside it is kept as is).
 * Nothing is trimmed. Positions in error messages are 1-based: field 1 is the first field, character 1 the first
 * character of the record. Immutable and thread-safe; shared by {@link CsvRowFormat} and the file connector's CSV
 * format.
 */
public final class CsvSyntax implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private static final int FIELD_START = 0;
    private static final int UNQUOTED = 1;
    private static final int QUOTED = 2;
    private static final int AFTER_QUOTE = 3;

    /** Comma and double quote, as RFC 4180 has them. */
    public static final CsvSyntax RFC_4180 = new CsvSyntax(',', '"');

    private final char delimiter;
    private final char quote;

    private CsvSyntax(char delimiter, char quote) {
        this.delimiter = delimiter;
        this.quote = quote;
    }

    /**
     * The syntax with {@code delimiter} between fields and {@code quote} around quoted fields; fails naming the
     * option when either is a line break or both are the same.
     */
    public static CsvSyntax of(char delimiter, char quote) {
        if (delimiter == '\n' || delimiter == '\r') {
            throw new IllegalArgumentException("option 'delimiter' must not be a line break");
        }
        if (quote == '\n' || quote == '\r') {
            throw new IllegalArgumentException("option 'quote' must not be a line break");
        }
        if (delimiter == quote) {
            throw new IllegalArgumentException("options 'delimiter' and 'quote' must differ, both were '" + delimiter + "'");
        }
        return new CsvSyntax(delimiter, quote);
    }

    public char delimiter() {
        return delimiter;
    }

    public char quote() {
        return quote;
    }

    /** Receives the fields of a record in order. */
    @FunctionalInterface
    public interface FieldSink {
        /**
         * @param index 0-based position of the field
         * @param value its text, unquoted
         * @param start 0-based offset in the record of its first character (its opening quote when quoted)
         * @param quoted whether it was written in quotes
         */
        void field(int index, String value, int start, boolean quoted);
    }

    /** True if {@code text} ends inside a quoted field, so the record continues on the next line. */
    public boolean isOpen(CharSequence text) {
        int state = FIELD_START;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (state == QUOTED) {
                state = c == quote ? AFTER_QUOTE : QUOTED;
            } else if (c == delimiter) {
                state = FIELD_START;
            } else if (c == quote && (state == FIELD_START || state == AFTER_QUOTE)) {
                state = QUOTED; // an opening quote, or the second quote of an escaped pair
            } else {
                state = UNQUOTED;
            }
        }
        return state == QUOTED;
    }

    /** The fields of one record; fails as {@link #split}. */
    public List<String> parse(String text) {
        List<String> fields = new ArrayList<>();
        split(text, (index, value, start, quoted) -> fields.add(value));
        return fields;
    }

    /**
     * Splits one record into its fields, handing each to {@code sink}, and returns how many there were. Fails with a
     * {@link FormatException} naming the field and the character when the quoting is malformed: a quoted field that
     * does not end, or something other than the delimiter after a closing quote.
     */
    public int split(String text, FieldSink sink) {
        StringBuilder field = new StringBuilder();
        int index = 0;
        int i = 0;
        int n = text.length();
        while (true) {
            int start = i;
            boolean quoted = i < n && text.charAt(i) == quote;
            if (quoted) {
                i++;
                while (true) {
                    if (i >= n) {
                        throw new FormatException("unterminated quoted field " + (index + 1) + " (its quote opens at character "
                                + (start + 1) + ")");
                    }
                    char c = text.charAt(i++);
                    if (c != quote) {
                        field.append(c);
                    } else if (i < n && text.charAt(i) == quote) {
                        field.append(quote);
                        i++;
                    } else {
                        break;
                    }
                }
                if (i < n && text.charAt(i) != delimiter) {
                    throw new FormatException("unexpected '" + text.charAt(i) + "' at character " + (i + 1)
                            + " after the closing quote of field " + (index + 1));
                }
                sink.field(index++, field.toString(), start, true);
                field.setLength(0);
            } else {
                int end = text.indexOf(delimiter, i);
                if (end < 0) {
                    end = n;
                }
                sink.field(index++, text.substring(i, end), start, false);
                i = end;
            }
            if (i >= n) {
                return index;
            }
            i++; // the delimiter
        }
    }

    /** Appends {@code value} as one field, quoted if it holds the delimiter, the quote or a line break, or if {@code forceQuote}. */
    public void appendField(StringBuilder out, String value, boolean forceQuote) {
        boolean quoteIt = forceQuote;
        for (int i = 0; i < value.length() && !quoteIt; i++) {
            char c = value.charAt(i);
            quoteIt = c == delimiter || c == quote || c == '\n' || c == '\r';
        }
        if (!quoteIt) {
            out.append(value);
            return;
        }
        out.append(quote);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == quote) {
                out.append(quote);
            }
            out.append(c);
        }
        out.append(quote);
    }

    @Override
    public String toString() {
        return "CSV (delimiter '" + delimiter + "', quote '" + quote + "')";
    }
}
