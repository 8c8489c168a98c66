package io.millrace.sql.runtime;

import io.millrace.api.row.Row;

/**
 * A compiled scalar expression: a tree of small closures built once when a query is planned, evaluated on a row
 * without looking at the SQL again. Values are the boxed Java types of {@link io.millrace.api.row.FieldType}
 * ({@code Long} milliseconds for timestamps and day-time intervals, {@code Double} for DOUBLE and DECIMAL), or null
 * for SQL's NULL. Serializable, so that every subtask runs its own copy; stateless, so a copy can be shared.
 */
@FunctionalInterface
public interface Expr extends java.io.Serializable {
    Object eval(Row row);
}
