package io.millrace.connector.jdbc;

import io.millrace.api.sink.CommittingSinkWriter;
import io.millrace.api.time.Clock;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The upsert sink's writer: buffers the latest change per key (an upsert of the row, or a delete of the key) and
 * writes the buffer as one transaction when it holds {@code batchSize} keys, when its oldest change has waited
 * {@code batchInterval}, when the subtask runs out of input or the task flushes its output, and on every checkpoint
 * barrier, which waits until the batch is committed. Every write sets a key to the row it last had in the input, so
 * writing a change again (after a restore from a checkpoint) leaves the table as it was: at-least-once delivery
 * gives the exactly-once table. Prepares no committables. Called on the sink subtask's thread only.
 */
final class UpsertWriter<T> implements CommittingSinkWriter<T, PreparedTransaction> {
    private final PostgresSink<T> sink;
    private final String name;
    private final Clock clock;
    private final RowWriter<T> rows;
    private final LinkedHashMap<List<Object>, RowWriter.Change<T>> buffer = new LinkedHashMap<>();
    private long oldestNanos;
    private Connection connection;

    UpsertWriter(PostgresSink<T> sink, String name, Clock clock) throws SQLException {
        this.sink = sink;
        this.name = name;
        this.clock = clock;
        this.rows = sink.rowWriter(name);
        try (Connection c = sink.backoff().run(clock, sink.describe(name) + " connecting", f -> {}, () -> sink.connection().open(true))) {
            rows.createDeadLetterTable(c);
        }
    }

    @Override
    public void write(T value, long timestamp) throws Exception {
        RowWriter.Change<T> change = rows.changeOf(value);
        if (change == null) {
            return;
        }
        List<Object> key = rows.keyOf(value);
        if (buffer.isEmpty()) {
            oldestNanos = clock.nanoTime();
        }
        buffer.remove(key); // the key's latest change goes last, so that a one-by-one retry follows the input's order
        buffer.put(key, change);
        if (buffer.size() >= sink.batchSize() || sink.batchIntervalNanos() > 0 && intervalPassed()) {
            writeBuffer();
        }
    }

    @Override
    public void flush(boolean endOfInput) throws Exception {
        if (endOfInput || intervalPassed()) {
            writeBuffer();
        }
    }

    @Override
    public List<PreparedTransaction> prepareCommit(long checkpointId) throws Exception {
        writeBuffer();
        return List.of();
    }

    private boolean intervalPassed() {
        return !buffer.isEmpty() && clock.nanoTime() - oldestNanos >= sink.batchIntervalNanos();
    }

    /** Writes the buffer in one transaction, again after transient failures (a new connection each time). */
    private void writeBuffer() throws SQLException {
        if (buffer.isEmpty()) {
            return;
        }
        List<RowWriter.Change<T>> batch = new ArrayList<>(buffer.values());
        sink.backoff().run(clock, sink.describe(name) + " writing " + batch.size() + " rows", f -> dropConnection(), () -> {
            if (connection == null) {
                connection = sink.connection().open(false);
            }
            try {
                rows.writeBatched(connection, batch);
            } catch (SQLException e) {
                if (!SqlErrors.isBadRow(e)) {
                    throw e;
                }
                connection.rollback();
                rows.writeOneByOne(connection, batch, null);
            }
            connection.commit();
            return null;
        });
        buffer.clear();
    }

    private void dropConnection() {
        ConnectionOptions.closeQuietly(connection);
        connection = null;
    }

    /** Buffered changes are dropped: none of them is in a complete checkpoint, and the input is replayed after a restore. */
    @Override
    public void close() {
        buffer.clear();
        dropConnection();
    }
}
