package io.millrace.connector.jdbc;

import io.millrace.api.sink.Committer;
import io.millrace.api.time.Clock;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Commits the exactly-once sink's prepared transactions when their checkpoint completes ({@code COMMIT PREPARED}),
 * on the sink subtask's thread, on a connection of its own in auto-commit mode; a lost connection is opened again
 * within the sink's retry timeout. Any session may commit a prepared transaction, so the transactions of the
 * checkpoint a job was restored from are committed the same way. A global id that is no longer prepared was
 * committed before (the crash came after the commit and before the checkpoint after it), which the sink's progress
 * table ({@link SinkProgress}) confirms; if it does not, the transaction was rolled back outside the job and the
 * commit fails saying so. After a commit, the subtask's older progress rows are removed.
 */
final class PreparedTransactionCommitter implements Committer<PreparedTransaction> {
    private final PostgresSink<?> sink;
    private final String name;
    private final Clock clock;
    private Connection connection;

    PreparedTransactionCommitter(PostgresSink<?> sink, String name, Clock clock) {
        this.sink = sink;
        this.name = name;
        this.clock = clock;
    }

    @Override
    public void commit(List<PreparedTransaction> committables) throws SQLException {
        for (PreparedTransaction t : committables) {
            sink.backoff().run(clock, sink.describe(name) + " committing prepared transaction " + t.gid(), f -> dropConnection(), () -> {
                if (connection == null) {
                    connection = sink.connection().open(true);
                }
                boolean committedNow = PreparedTransactions.commit(connection, t.gid());
                long[] subtaskAndCheckpoint = sink.ids().parse(t.gid());
                if (subtaskAndCheckpoint == null) {
                    return null;
                }
                int subtask = (int) subtaskAndCheckpoint[0];
                long checkpoint = subtaskAndCheckpoint[1];
                if (!committedNow && sink.progress().newest(connection, sink.ids().prefix(), subtask) < checkpoint) {
                    throw new IllegalStateException(sink.describe(name) + ": prepared transaction " + t.gid() + " of a complete checkpoint"
                            + " is neither prepared nor committed: it was rolled back outside this job (ROLLBACK PREPARED, or another sink"
                            + " or job with the same transactionPrefix), and its rows are lost");
                }
                sink.progress().forgetBefore(connection, sink.ids().prefix(), subtask, checkpoint);
                return null;
            });
        }
    }

    private void dropConnection() {
        ConnectionOptions.closeQuietly(connection);
        connection = null;
    }

    /** Leaves prepared transactions as they are: they are in a checkpoint, and whoever restores it commits them. */
    @Override
    public void close() {
        dropConnection();
    }
}
