package io.millrace.connector.jdbc;

import io.millrace.api.sink.CommittingSinkWriter;
import io.millrace.api.time.Clock;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The exactly-once append sink's writer: the rows between two checkpoint barriers go into one transaction of this
 * subtask, written in batches as they come ({@code batchSize}, {@code batchInterval}, and whenever the subtask runs
 * out of input). On a barrier the transaction is prepared ({@code PREPARE TRANSACTION '<prefix>-<subtask>-<checkpoint>'})
 * and handed to the checkpoint as a {@link PreparedTransaction}; the committer commits it when the checkpoint is
 * complete. A barrier with no row since the last prepares nothing.
 *
 * <p>The rows of the open transaction are kept until it is prepared: when the connection is lost, the server
 * aborts the transaction, and the writer writes them again into a new one once it reconnects (within the sink's retry
 * timeout). A lost connection during {@code PREPARE TRANSACTION} is settled by looking the id up among the prepared
 * transactions. Called on the sink subtask's thread only.
 */
final class TransactionalAppendWriter<T> implements CommittingSinkWriter<T, PreparedTransaction> {
    private final PostgresSink<T> sink;
    private final String name;
    private final Clock clock;
    private final int subtask;
    private final TransactionIds ids;
    private final RowWriter<T> rows;
    /** Rows received and not yet sent. */
    private final List<RowWriter.Change<T>> pending = new ArrayList<>();
    /** Rows written into the open transaction. */
    private final List<RowWriter.Change<T>> written = new ArrayList<>();
    /** Rows refused and written to the dead-letter table in the open transaction. */
    private final List<RowWriter.Rejected<T>> rejected = new ArrayList<>();
    private long oldestNanos;
    private Connection connection;

    TransactionalAppendWriter(PostgresSink<T> sink, String name, Clock clock, int subtask, TransactionIds ids) throws SQLException {
        this.sink = sink;
        this.name = name;
        this.clock = clock;
        this.subtask = subtask;
        this.ids = ids;
        this.rows = sink.rowWriter(name);
        try (Connection c = sink.backoff().run(clock, sink.describe(name) + " connecting", f -> {}, () -> sink.connection().open(true))) {
            rows.createDeadLetterTable(c);
            sink.progress().create(c);
        }
    }

    @Override
    public void write(T value, long timestamp) throws Exception {
        RowWriter.Change<T> change = rows.changeOf(value);
        if (pending.isEmpty()) {
            oldestNanos = clock.nanoTime();
        }
        pending.add(change);
        if (pending.size() >= sink.batchSize() || sink.batchIntervalNanos() > 0 && clock.nanoTime() - oldestNanos >= sink.batchIntervalNanos()) {
            send();
        }
    }

    @Override
    public void flush(boolean endOfInput) throws Exception {
        if (!pending.isEmpty() && (endOfInput || clock.nanoTime() - oldestNanos >= sink.batchIntervalNanos())) {
            send();
        }
    }

    @Override
    public List<PreparedTransaction> prepareCommit(long checkpointId) throws Exception {
        send();
        if (written.isEmpty() && rejected.isEmpty()) {
            return List.of();
        }
        String gid = ids.of(subtask, checkpointId);
        sink.backoff().run(clock, sink.describe(name) + " preparing transaction " + gid, f -> dropConnection(), () -> {
            if (connection == null) {
                connection = sink.connection().open(false);
                if (PreparedTransactions.isPrepared(connection, gid)) {
                    return null; // prepared before the connection was lost
                }
                rewrite();
            }
            sink.progress().record(connection, ids.prefix(), subtask, checkpointId);
            PreparedTransactions.prepare(connection, gid);
            return null;
        });
        written.clear();
        rejected.clear();
        return List.of(new PreparedTransaction(gid));
    }

    /** Writes the pending rows into the open transaction (opening one, and writing its earlier rows again, after a lost connection). */
    private void send() throws SQLException {
        if (pending.isEmpty()) {
            return;
        }
        sink.backoff().run(clock, sink.describe(name) + " writing " + pending.size() + " rows", f -> dropConnection(), () -> {
            if (connection == null) {
                connection = sink.connection().open(false);
                rewrite();
            }
            try {
                rows.writeBatched(connection, pending);
                written.addAll(pending);
            } catch (SQLException e) {
                if (!SqlErrors.isBadRow(e)) {
                    throw e;
                }
                connection.rollback();
                rewrite();
                List<RowWriter.Change<T>> accepted = new ArrayList<>();
                List<RowWriter.Rejected<T>> refused = rows.writeOneByOne(connection, pending, accepted);
                written.addAll(accepted);
                rejected.addAll(refused);
            }
            return null;
        });
        pending.clear();
    }

    /** Writes the open transaction's rows again, into the connection's new transaction. */
    private void rewrite() throws SQLException {
        for (int from = 0; from < written.size(); from += sink.batchSize()) {
            rows.writeBatched(connection, written.subList(from, Math.min(written.size(), from + sink.batchSize())));
        }
        rows.writeDeadLetters(connection, rejected);
    }

    private void dropConnection() {
        ConnectionOptions.closeQuietly(connection);
        connection = null;
    }

    /** Rolls the open transaction back by closing its connection; prepared ones stay for the committer. */
    @Override
    public void close() {
        pending.clear();
        written.clear();
        rejected.clear();
        dropConnection();
    }
}
