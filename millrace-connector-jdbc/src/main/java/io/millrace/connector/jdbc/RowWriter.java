package io.millrace.connector.jdbc;

import io.millrace.api.row.RowKind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a sink's changes against its table inside the connection's open transaction (auto-commit off), in JDBC
 * batches: inserts or upserts, and deletes by key. {@link #writeBatched} is the fast path and lets a failure go,
 * after which the transaction is aborted; when the failure is a bad row, the caller rolls back and calls
 * {@link #writeOneByOne}, which puts each change in a savepoint of its own so that a refused row is rolled back
 * alone and follows the {@link BadRowPolicy}. Statements are prepared once per connection.
 */
final class RowWriter<T> {
    /** An upsert, an insert, or (with {@code delete}) a delete by key. */
    record Change<T>(T value, boolean delete) {}

    /** A row the table refused, and why; it is in the dead-letter table of the open transaction. */
    record Rejected<T>(T value, String sqlState, String reason) {}

    private final String sinkName;
    private final String table;
    private final Columns<T> columns;
    /** The key columns' positions among the columns (upserts), or null (inserts). */
    private final int[] key;
    private final BadRowPolicy policy;
    private final String writeSql;
    private final String deleteSql;
    private Connection prepared;
    private PreparedStatement write;
    private PreparedStatement delete;
    private PreparedStatement deadLetter;

    RowWriter(String sinkName, String table, Columns<T> columns, List<String> keyColumns, BadRowPolicy policy) {
        this.sinkName = sinkName;
        this.table = table;
        this.columns = columns;
        this.policy = policy;
        if (keyColumns == null) {
            this.key = null;
            this.writeSql = TableStatements.insert(table, columns.names());
            this.deleteSql = null;
        } else {
            this.key = keyColumns.stream().mapToInt(k -> columns.index("upsert", k)).toArray();
            this.writeSql = TableStatements.upsert(table, columns.names(), keyColumns);
            this.deleteSql = TableStatements.delete(table, keyColumns);
        }
    }

    /** The change a record makes: null for an {@link RowKind#UPDATE_BEFORE} of an upsert sink (the update after it sets the row). */
    Change<T> changeOf(T value) {
        RowKind kind = columns.kind(value);
        if (key == null) {
            if (kind != RowKind.INSERT) {
                throw new IllegalArgumentException("PostgreSQL sink '" + sinkName + "' appends to table " + table + " and takes inserts (+I)"
                        + " only, but got a " + kind + " row: " + describe(value) + "; write a changelog with an upsert sink (option 'upsert')");
            }
            return new Change<>(value, false);
        }
        return switch (kind) {
            case INSERT, UPDATE_AFTER -> new Change<>(value, false);
            case DELETE -> new Change<>(value, true);
            case UPDATE_BEFORE -> null;
        };
    }

    /** The values of the key columns of {@code value}, comparable with {@code equals}. */
    List<Object> keyOf(T value) {
        List<Object> k = new ArrayList<>(key.length);
        for (int i : key) {
            k.add(columns.value(value, i));
        }
        return k;
    }

    /** Writes {@code changes} in batches; any failure leaves the transaction aborted. */
    void writeBatched(Connection c, List<Change<T>> changes) throws SQLException {
        statementsFor(c);
        int writes = 0;
        int deletes = 0;
        try {
            for (Change<T> change : changes) {
                if (change.delete()) {
                    bindKey(delete, change.value());
                    delete.addBatch();
                    deletes++;
                } else {
                    bindAll(write, change.value());
                    write.addBatch();
                    writes++;
                }
            }
            if (deletes > 0) {
                delete.executeBatch();
            }
            if (writes > 0) {
                write.executeBatch();
            }
        } catch (SQLException e) {
            clearBatches();
            throw named(e);
        }
    }

    /**
     * Writes {@code changes} one by one, each in a savepoint of its own; a refused row is rolled back alone and, with
     * a dead-letter table, written there (the rows are returned), else fails with a {@link RejectedRowException}. The
     * changes the table took are added to {@code accepted}, when given.
     */
    List<Rejected<T>> writeOneByOne(Connection c, List<Change<T>> changes, List<Change<T>> accepted) throws SQLException {
        statementsFor(c);
        List<Rejected<T>> rejected = new ArrayList<>();
        for (Change<T> change : changes) {
            Savepoint one = c.setSavepoint();
            try {
                PreparedStatement s = change.delete() ? delete : write;
                if (change.delete()) {
                    bindKey(s, change.value());
                } else {
                    bindAll(s, change.value());
                }
                s.executeUpdate();
                c.releaseSavepoint(one);
                if (accepted != null) {
                    accepted.add(change);
                }
            } catch (SQLException e) {
                if (!SqlErrors.isBadRow(e)) {
                    throw named(e);
                }
                c.rollback(one);
                if (policy.deadLetterTable() == null) {
                    throw new RejectedRowException(sinkName, table, describe(change.value()), e);
                }
                rejected.add(new Rejected<>(change.value(), SqlErrors.state(e), SqlErrors.message(e)));
            }
        }
        writeDeadLetters(c, rejected);
        return rejected;
    }

    /** Writes {@code rejected} to the dead-letter table in the open transaction. */
    void writeDeadLetters(Connection c, List<Rejected<T>> rejected) throws SQLException {
        if (rejected.isEmpty()) {
            return;
        }
        statementsFor(c);
        for (Rejected<T> r : rejected) {
            deadLetter.setString(1, sinkName);
            deadLetter.setString(2, table);
            deadLetter.setString(3, describe(r.value()));
            deadLetter.setString(4, r.sqlState());
            deadLetter.setString(5, r.reason());
            deadLetter.addBatch();
        }
        try {
            deadLetter.executeBatch();
        } catch (SQLException e) {
            deadLetter.clearBatch();
            if (SqlErrors.isTransient(e)) {
                throw e;
            }
            throw new SQLException("PostgreSQL sink '" + sinkName + "': cannot write to the dead-letter table "
                    + policy.deadLetterTable() + ": " + SqlErrors.message(e), SqlErrors.state(e), e);
        }
    }

    /** Creates the dead-letter table when the policy has one and it is missing. */
    void createDeadLetterTable(Connection autoCommit) throws SQLException {
        if (policy.deadLetterTable() == null) {
            return;
        }
        try (var s = autoCommit.createStatement()) {
            s.execute(TableStatements.createDeadLetterTable(policy.deadLetterTable()));
        } catch (SQLException e) {
            String state = SqlErrors.state(e);
            // two subtasks creating it at once: one of them loses the race on the catalog, and the table is there
            if (!"23505".equals(state) && !"42P07".equals(state)) {
                throw e;
            }
        }
    }

    private void statementsFor(Connection c) throws SQLException {
        if (prepared == c) {
            return;
        }
        write = c.prepareStatement(writeSql);
        delete = deleteSql == null ? null : c.prepareStatement(deleteSql);
        deadLetter = policy.deadLetterTable() == null ? null : c.prepareStatement(TableStatements.insertDeadLetter(policy.deadLetterTable()));
        prepared = c;
    }

    private void clearBatches() {
        try {
            write.clearBatch();
            if (delete != null) {
                delete.clearBatch();
            }
        } catch (SQLException e) {
            // the connection is gone: its statements go with it
        }
    }

    private void bindAll(PreparedStatement s, T value) throws SQLException {
        for (int i = 0; i < columns.size(); i++) {
            s.setObject(i + 1, columns.value(value, i));
        }
    }

    private void bindKey(PreparedStatement s, T value) throws SQLException {
        for (int i = 0; i < key.length; i++) {
            s.setObject(i + 1, columns.value(value, key[i]));
        }
    }

    /** A failure that is neither transient nor a bad row, named with the sink and the table; others unchanged. */
    private SQLException named(SQLException e) {
        if (SqlErrors.isTransient(e) || SqlErrors.isBadRow(e)) {
            return e;
        }
        return new SQLException("PostgreSQL sink '" + sinkName + "': writing to table " + table + " failed: " + SqlErrors.message(e),
                SqlErrors.state(e), e);
    }

    static String describe(Object value) {
        String s = String.valueOf(value);
        return s.length() > 2000 ? s.substring(0, 2000) + "…" : s;
    }
}
