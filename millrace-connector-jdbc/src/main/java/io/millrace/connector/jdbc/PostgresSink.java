package io.millrace.connector.jdbc;

import io.millrace.api.sink.Committer;
import io.millrace.api.sink.CommittingSinkWriter;
import io.millrace.api.sink.SinkContext;
import io.millrace.api.sink.TwoPhaseCommitSink;
import io.millrace.api.sink.versioned.VersionedCommittables;
import io.millrace.api.source.VersionedCodec;
import io.millrace.api.time.Clock;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Writes to a PostgreSQL table, in one of two modes (see docs/postgres.md):
 *
 * <ul>
 *   <li>{@linkplain Builder#upsert upsert} by the table's primary key: {@code +I} and {@code +U} rows become
 *       {@code INSERT ... ON CONFLICT (key) DO UPDATE}, {@code -D} rows a {@code DELETE} by key, {@code -U} rows
 *       nothing. Batched, and idempotent: a change written again after a restore leaves the table as it was, so the
 *       table is exactly the input's latest row per key even though delivery is at least once. Every checkpoint
 *       barrier waits until the buffered changes are committed.
 *   <li>{@linkplain Builder#exactlyOnceAppend exactly-once append} to a table without a key: each subtask writes the
 *       rows between two checkpoint barriers into one transaction, prepares it on the barrier
 *       ({@code PREPARE TRANSACTION}) and commits it when the checkpoint completes ({@code COMMIT PREPARED}); after a
 *       crash the restored checkpoint's transactions are committed and later ones rolled back. Every row becomes
 *       visible once, with the checkpoint that covers it. Each transaction also records its checkpoint in a
 *       progress table ({@link SinkProgress}), so that a start which would write committed rows again is refused.
 *       Needs {@code max_prepared_transactions} on the server.
 * </ul>
 *
 * Both run on the two-phase-commit sink contract, so that the writer hears of every checkpoint barrier. A transient
 * failure of the database (a lost connection, the server restarting, a serialization failure) is retried with
 * backoff within {@link Builder#retryTimeout}; then the task fails and the restart strategy takes over. A row the
 * table refuses follows the {@link BadRowPolicy}.
 *
 * <pre>{@code
 * PostgresSink<Row> machines = PostgresSink.builder(Columns.of(MACHINE))
 *         .url("jdbc:postgresql://db:5432/plant").user("millrace").password(secret)
 *         .table("machines").upsert("machine").build();
 * }</pre>
 */
public final class PostgresSink<T> implements TwoPhaseCommitSink<T, PreparedTransaction>, VersionedCommittables<PreparedTransaction> {
    private static final long serialVersionUID = 1L;

    /** The two ways of writing. */
    public enum Mode {
        UPSERT, EXACTLY_ONCE_APPEND
    }

    private final ConnectionOptions connection;
    private final String table;
    private final Columns<T> columns;
    private final Mode mode;
    private final List<String> key;
    private final String transactionPrefix;
    private final int batchSize;
    private final long batchIntervalNanos;
    private final Backoff backoff;
    private final BadRowPolicy badRows;
    private final SinkProgress progress;

    private PostgresSink(Builder<T> b) {
        this.connection = new ConnectionOptions(b.url, b.properties);
        this.table = b.table;
        this.columns = b.columns;
        this.mode = b.mode;
        this.key = b.key == null ? null : List.copyOf(b.key);
        this.transactionPrefix = b.transactionPrefix;
        this.batchSize = b.batchSize;
        this.batchIntervalNanos = b.batchInterval.toNanos();
        this.backoff = new Backoff(b.initialBackoff, b.maxBackoff, b.retryTimeout);
        this.badRows = b.badRows;
        this.progress = new SinkProgress(b.progressTable);
    }

    /** A sink of records mapped to columns by {@code columns}; {@code url}, {@code table} and a mode are required. */
    public static <T> Builder<T> builder(Columns<T> columns) {
        return new Builder<>(columns);
    }

    public Mode mode() {
        return mode;
    }

    public String table() {
        return table;
    }

    @Override
    public CommittingSinkWriter<T, PreparedTransaction> createWriter(SinkContext context) throws Exception {
        if (mode == Mode.UPSERT) {
            return new UpsertWriter<>(this, context.sinkName(), context.clock());
        }
        return new TransactionalAppendWriter<>(this, context.sinkName(), context.clock(), context.subtaskIndex(), ids());
    }

    @Override
    public Committer<PreparedTransaction> createCommitter(SinkContext context) {
        return new PreparedTransactionCommitter(this, context.sinkName(), context.clock());
    }

    /**
     * Exactly-once append: rolls back the prepared transactions of this subtask numbered after
     * {@code restoredCheckpointId} (all of them on a fresh start, -1): they belong to no complete checkpoint.
     * Those of the restored checkpoint and before are left for the committer. Upsert: nothing to do.
     */
    @Override
    public void abortLingering(SinkContext context, long restoredCheckpointId) throws Exception {
        if (mode == Mode.EXACTLY_ONCE_APPEND) {
            refuseRepeating(context.clock(), context.sinkName(), context.subtaskIndex(), restoredCheckpointId);
            rollBackAfter(context.clock(), context.sinkName(), context.subtaskIndex(), restoredCheckpointId);
        }
    }

    /**
     * Fails if {@code subtask} already committed the rows of a checkpoint after {@code restoredCheckpointId}: the
     * restored job would write them a second time (a fresh start with a prefix that has committed rows, or a restore
     * from a checkpoint or savepoint older than committed output).
     */
    private void refuseRepeating(Clock clock, String name, int subtask, long restoredCheckpointId) throws SQLException {
        long newest = backoff.run(clock, describe(name) + " reading " + progress.table(), f -> {}, () -> {
            try (Connection c = connection.open(true)) {
                progress.create(c);
                return progress.newest(c, transactionPrefix, subtask);
            }
        });
        if (newest > restoredCheckpointId) {
            throw new IllegalStateException(describe(name) + ": subtask " + subtask + " of transaction prefix '" + transactionPrefix
                    + "' already committed the rows of checkpoint " + newest
                    + (restoredCheckpointId < 0 ? ", but the job starts afresh" : ", after the restored checkpoint " + restoredCheckpointId)
                    + ": they would be written twice. Restore a newer checkpoint, use another transactionPrefix, or, to write them again"
                    + " on purpose, DELETE FROM " + progress.table() + " WHERE prefix = '" + transactionPrefix + "'");
        }
    }

    /** Rolls back the prepared transactions of {@code subtask} numbered after {@code checkpointId}; returns their ids. */
    List<String> rollBackAfter(Clock clock, String name, int subtask, long checkpointId) throws SQLException {
        TransactionIds ids = ids();
        return backoff.run(clock, describe(name) + " rolling back prepared transactions after checkpoint " + checkpointId, f -> {}, () -> {
            List<String> rolledBack = new ArrayList<>();
            try (Connection c = connection.open(true)) {
                for (String gid : PreparedTransactions.of(c, ids, subtask)) {
                    if (ids.numberOf(subtask, gid) > checkpointId && PreparedTransactions.rollback(c, gid)) {
                        rolledBack.add(gid);
                    }
                }
            }
            return rolledBack;
        });
    }

    /** Prepared transactions are stored in checkpoints as version 1 of {@link PreparedTransaction.Codec}. */
    @Override
    public VersionedCodec<PreparedTransaction> committableCodec() {
        return new PreparedTransaction.Codec();
    }

    TransactionIds ids() {
        return new TransactionIds(transactionPrefix);
    }

    RowWriter<T> rowWriter(String name) {
        return new RowWriter<>(name, table, columns, key, badRows);
    }

    SinkProgress progress() {
        return progress;
    }

    ConnectionOptions connection() {
        return connection;
    }

    Backoff backoff() {
        return backoff;
    }

    int batchSize() {
        return batchSize;
    }

    long batchIntervalNanos() {
        return batchIntervalNanos;
    }

    String describe(String name) {
        return "PostgreSQL sink '" + name + "' (table " + table + ")";
    }

    /**
     * Options of a {@link PostgresSink}. Required: {@code url}, {@code table} and one of {@code upsert} and
     * {@code exactlyOnceAppend}.
     */
    public static final class Builder<T> {
        private static final Pattern TABLE = Pattern.compile("[^.\\s\"]+(\\.[^.\\s\"]+)?");
        private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9_.:-]{1,120}");

        private final Columns<T> columns;
        private String url;
        private final LinkedHashMap<String, String> properties = new LinkedHashMap<>();
        private String table;
        private Mode mode;
        private List<String> key;
        private String transactionPrefix;
        private int batchSize = 1000;
        private Duration batchInterval = Duration.ZERO;
        private Duration initialBackoff = Duration.ofMillis(100);
        private Duration maxBackoff = Duration.ofSeconds(5);
        private Duration retryTimeout = Duration.ofSeconds(60);
        private BadRowPolicy badRows = BadRowPolicy.fail();
        private String progressTable = "millrace_sink_progress";

        private Builder(Columns<T> columns) {
            this.columns = Objects.requireNonNull(columns, "columns");
        }

        /** {@code jdbc:postgresql://host:port/database}, optionally with driver parameters after {@code ?}. */
        public Builder<T> url(String value) {
            if (value == null || !value.startsWith("jdbc:postgresql:")) {
                throw new IllegalArgumentException("option 'url' must be a PostgreSQL JDBC URL (jdbc:postgresql://host:port/database), was "
                        + (value == null ? "null" : "'" + value + "'"));
            }
            this.url = value;
            return this;
        }

        public Builder<T> user(String value) {
            return property("user", value);
        }

        public Builder<T> password(String value) {
            return property("password", value);
        }

        /** Any property of the PostgreSQL JDBC driver ({@code ssl}, {@code sslmode}, {@code ApplicationName}...). */
        public Builder<T> property(String key, String value) {
            properties.put(Objects.requireNonNull(key, "property"), Objects.requireNonNull(value, key));
            return this;
        }

        /** The table: {@code name} or {@code schema.name}, each part quoted as given (case-sensitive). */
        public Builder<T> table(String value) {
            if (value == null || !TABLE.matcher(value).matches()) {
                throw new IllegalArgumentException("option 'table' must be a table name or schema.table, without spaces or quotes, was "
                        + (value == null ? "null" : "'" + value + "'"));
            }
            this.table = value;
            return this;
        }

        /**
         * Upserts by {@code keyColumns}, which must be the columns of the table's primary key or of another unique
         * constraint (what {@code ON CONFLICT} names).
         */
        public Builder<T> upsert(String... keyColumns) {
            if (keyColumns.length == 0) {
                throw new IllegalArgumentException("option 'upsert' needs the key columns, e.g. upsert(\"machine\")");
            }
            List<String> k = List.of(keyColumns);
            for (String c : k) {
                columns.index("upsert", c);
            }
            if (k.stream().distinct().count() != k.size()) {
                throw new IllegalArgumentException("option 'upsert': a key column is named twice in " + k);
            }
            this.mode = Mode.UPSERT;
            this.key = k;
            this.transactionPrefix = null;
            return this;
        }

        /**
         * Appends exactly once through prepared transactions named {@code <transactionPrefix>-<subtask>-<checkpoint>}:
         * the prefix (letters, digits, {@code _ . : -}, up to 120) must stay the same when the job restarts or is
         * restored, and no other sink or job writing to the same database may use it.
         */
        public Builder<T> exactlyOnceAppend(String transactionPrefix) {
            if (transactionPrefix == null || !PREFIX.matcher(transactionPrefix).matches()) {
                throw new IllegalArgumentException("option 'transactionPrefix' must be 1 to 120 letters, digits or _ . : -, unique to this"
                        + " job and sink, was " + (transactionPrefix == null ? "null" : "'" + transactionPrefix + "'"));
            }
            this.mode = Mode.EXACTLY_ONCE_APPEND;
            this.transactionPrefix = transactionPrefix;
            this.key = null;
            return this;
        }

        /** Rows (upsert: keys) per batch, default 1000. */
        public Builder<T> batchSize(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("option 'batchSize' must be at least 1, was " + value);
            }
            this.batchSize = value;
            return this;
        }

        /**
         * The longest a row waits in the buffer while rows keep coming, default 0: the buffer is also written whenever
         * the subtask runs out of input and whenever its task flushes its output (every {@code bufferTimeout}); with a
         * longer interval, those moments write only a buffer at least this old. Every checkpoint barrier writes it.
         */
        public Builder<T> batchInterval(Duration value) {
            if (value == null || value.isNegative()) {
                throw new IllegalArgumentException("option 'batchInterval' must be zero or positive, was " + value);
            }
            this.batchInterval = value;
            return this;
        }

        /** The first wait after a transient failure (default 100 ms) and the longest (default 5 s); it doubles in between. */
        public Builder<T> retryBackoff(Duration initial, Duration max) {
            if (initial == null || max == null || initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
                throw new IllegalArgumentException("option 'retryBackoff' needs 0 < initial <= max, was " + initial + " and " + max);
            }
            this.initialBackoff = initial;
            this.maxBackoff = max;
            return this;
        }

        /** How long the sink waits for the database to come back before it fails the task (default 60 s). */
        public Builder<T> retryTimeout(Duration value) {
            if (value == null || value.isNegative()) {
                throw new IllegalArgumentException("option 'retryTimeout' must be zero or positive, was " + value);
            }
            this.retryTimeout = value;
            return this;
        }

        /** What a row the table refuses does; default {@link BadRowPolicy#fail()}. */
        public Builder<T> onBadRow(BadRowPolicy value) {
            this.badRows = Objects.requireNonNull(value, "onBadRow");
            return this;
        }

        /**
         * Exactly-once append: the table in which every transaction records its checkpoint (default
         * {@code millrace_sink_progress}, created when missing; {@code name} or {@code schema.name}, letters, digits
         * and {@code _}). Sinks may share it: its rows are per transaction prefix and subtask.
         */
        public Builder<T> progressTable(String value) {
            if (value == null || !value.matches("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?")) {
                throw new IllegalArgumentException("option 'progressTable' must be a table name (letters, digits and '_', optionally"
                        + " with a schema: schema.table), was " + (value == null ? "null" : "'" + value + "'"));
            }
            this.progressTable = value;
            return this;
        }

        public PostgresSink<T> build() {
            if (url == null) {
                throw new IllegalArgumentException("PostgreSQL sink: option 'url' is required");
            }
            if (table == null) {
                throw new IllegalArgumentException("PostgreSQL sink: option 'table' is required");
            }
            if (mode == null) {
                throw new IllegalArgumentException("PostgreSQL sink for table " + table + ": choose a mode, 'upsert' (key columns) or"
                        + " 'exactlyOnceAppend' (a transaction prefix)");
            }
            return new PostgresSink<>(this);
        }
    }
}
