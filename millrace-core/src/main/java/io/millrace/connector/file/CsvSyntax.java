package io.millrace.connector.file;

import java.util.ArrayList;
import java.util.List;

/**
 * The CSV syntax of RFC 4180 with a configurable delimiter: a field is either quoted (it may then hold
 * the delimiter, line breaks and doubled quotes {@code ""}) or unquoted (a quote inside it is kept as
 * is). Nothing is trimmed. Stateless.
 */
final class CsvSyntax {
    private static final int FIELD_START = 0;
    private static final int UNQUOTED = 1;
    private static final int QUOTED = 2;
    private static final int AFTER_QUOTE = 3;

    private CsvSyntax() {}

    /** True if {@code text} ends inside a quoted field, so the record continues on the next line. */
    static boolean isOpen(String text, char delimiter) {
        int state = FIELD_START;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (state == QUOTED) {
                state = c == '"' ? AFTER_QUOTE : QUOTED;
            } else if (c == delimiter) {
                state = FIELD_START;
            } else if (c == '"' && (state == FIELD_START || state == AFTER_QUOTE)) {
                state = QUOTED; // an opening quote, or the second quote of an escaped ""
            } else {
                state = UNQUOTED;
            }
        }
        return state == QUOTED;
    }

    /** Splits a record into its fields; throws with the reason if the quoting is malformed. */
    static List<String> parse(String text, char delimiter) throws BadLineException {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        int i = 0;
        int n = text.length();
        while (true) {
            if (i < n && text.charAt(i) == '"') {
                i++;
                while (true) {
                    if (i >= n) {
                        throw new BadLineException("unterminated quoted field " + (fields.size() + 1));
                    }
                    char c = text.charAt(i++);
                    if (c != '"') {
                        field.append(c);
                    } else if (i < n && text.charAt(i) == '"') {
                        field.append('"');
                        i++;
                    } else {
                        break;
                    }
                }
                if (i < n && text.charAt(i) != delimiter) {
                    throw new BadLineException("unexpected '" + text.charAt(i) + "' after the closing quote of field "
                            + (fields.size() + 1));
                }
            } else {
                while (i < n && text.charAt(i) != delimiter) {
                    field.append(text.charAt(i++));
                }
            }
            fields.add(field.toString());
            field.setLength(0);
            if (i >= n) {
                return fields;
            }
            i++; // the delimiter
        }
    }

    /** Appends {@code value} as one field, quoted if it holds the delimiter, a quote or a line break. */
    static void appendField(StringBuilder out, String value, char delimiter) {
        boolean quote = false;
        for (int i = 0; i < value.length() && !quote; i++) {
            char c = value.charAt(i);
            quote = c == delimiter || c == '"' || c == '\n' || c == '\r';
        }
        if (!quote) {
            out.append(value);
            return;
        }
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"') {
                out.append('"');
            }
            out.append(c);
        }
        out.append('"');
    }
}
