package io.millrace.connector.file;

/**
 * Turns a CSV row into a record. An exception (for example a number that does not parse) makes the line
 * a bad record with the exception's message as the reason; returning null does too.
 */
@FunctionalInterface
public interface RowMapper<T> extends java.io.Serializable {
    T map(CsvRow row) throws Exception;
}
