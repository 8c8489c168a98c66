package io.millrace.connector.jdbc;

import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.source.InputStatus;
import io.millrace.api.source.ReaderOutput;
import io.millrace.api.source.SourceReader;
import io.millrace.api.source.SourceReaderContext;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.postgresql.PGConnection;
import org.postgresql.PGProperty;
import org.postgresql.replication.LogSequenceNumber;
import org.postgresql.replication.PGReplicationStream;
import org.postgresql.replication.ReplicationSlotInfo;

/**
 * Reads a {@link PostgresCdcSource}'s slot: the snapshot first (when the split says it is not done), then the
 * replication stream. Everything runs on the subtask's thread; {@link #pollNext} reads what the stream has received
 * without waiting for more.
 *
 * <p>States: no split yet → SNAPSHOT (a fresh split: the slot is created and the tables read, within one
 * {@code pollNext}) → STREAMING (changes, checkpoints, completed-checkpoint notices) → ENDED (bounded sources, after
 * the transaction that commits past {@code endAfter}) → closed.
 */
final class CdcReader implements SourceReader<Row, CdcSplit> {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CdcReader.class);
    private static final int BATCH = 512;
    private static final String OBJECT_IN_USE = "55006";

    private final PostgresCdcSource source;
    private final SourceReaderContext context;

    private boolean assigned;
    private boolean snapshotDone;
    /** End LSN of the last transaction whose changes were all emitted. */
    private long committedEnd;
    /** The open transaction: its commit LSN and how many of its change messages were emitted; 0 when none is open. */
    private long openCommitLsn;
    private long openChanges;
    private long openCommitMillis;
    /** Restored from a checkpoint inside a transaction: skip this many changes of the transaction of that commit LSN. */
    private long skipCommitLsn;
    private long skipChanges;
    /** The open transaction was emitted before the checkpoint the reader was restored from. */
    private boolean skipTransaction;
    private boolean ended;

    private Connection replication;
    private PGReplicationStream stream;
    private final Map<Integer, CdcTable> relations = new HashMap<>();
    private final TreeMap<Long, Long> pendingFlush = new TreeMap<>();
    /** The position of the newest completed checkpoint, and the one last reported to the server as flushed. */
    private long toFlush;
    private long flushed;

    CdcReader(PostgresCdcSource source, SourceReaderContext context) {
        this.source = source;
        this.context = context;
    }

    @Override
    public void addSplits(List<CdcSplit> splits) {
        for (CdcSplit s : splits) {
            if (assigned) {
                throw new IllegalStateException("a CDC source reads one slot; got a second split " + s.splitId());
            }
            assigned = true;
            snapshotDone = s.snapshotDone();
            committedEnd = s.committedEnd();
            skipCommitLsn = s.openCommitLsn();
            skipChanges = s.openChanges();
        }
    }

    @Override
    public void noMoreSplits() {}

    @Override
    public InputStatus pollNext(ReaderOutput<Row> output) throws Exception {
        if (!assigned) {
            return InputStatus.NOTHING_AVAILABLE;
        }
        if (ended) {
            return InputStatus.END_OF_INPUT;
        }
        if (!snapshotDone) {
            snapshot(output);
            return InputStatus.MORE_AVAILABLE;
        }
        if (stream == null) {
            if (committedEnd >= source.endAfter) {
                ended = true;
                return InputStatus.END_OF_INPUT;
            }
            startStream(committedEnd);
            reportFlushed();
        }
        for (int i = 0; i < BATCH; i++) {
            ByteBuffer message = stream.readPending();
            if (message == null) {
                return InputStatus.NOTHING_AVAILABLE;
            }
            handle(PgOutputMessage.decode(message), output, stream.getLastReceiveLSN());
            if (ended) {
                return InputStatus.END_OF_INPUT;
            }
        }
        return InputStatus.MORE_AVAILABLE;
    }

    @Override
    public long nanosUntilAvailable() {
        return TimeUnit.MILLISECONDS.toNanos(5);
    }

    private void handle(PgOutputMessage m, ReaderOutput<Row> out, LogSequenceNumber at) {
        if (m instanceof PgOutputMessage.Begin b) {
            openCommitLsn = b.commitLsn();
            openCommitMillis = b.commitMillis();
            openChanges = 0;
            // a transaction that committed before the restored position was emitted before the checkpoint
            skipTransaction = b.commitLsn() < committedEnd;
        } else if (m instanceof PgOutputMessage.Commit c) {
            if (!skipTransaction) {
                committedEnd = c.endLsn();
            }
            if (c.commitLsn() == skipCommitLsn) {
                skipCommitLsn = 0;
                skipChanges = 0;
            }
            openCommitLsn = 0;
            openChanges = 0;
            skipTransaction = false;
            if (c.endLsn() >= source.endAfter) {
                ended = true;
            }
        } else if (m instanceof PgOutputMessage.Relation r) {
            relation(r);
        } else if (m instanceof PgOutputMessage.Truncate t) {
            for (int oid : t.relations()) {
                CdcTable table = relations.get(oid);
                if (table != null && !skipTransaction) {
                    throw new IllegalStateException("table " + table.qualifiedName() + " was truncated (transaction committed at "
                            + LogSequenceNumber.valueOf(openCommitLsn) + "): a changelog cannot express TRUNCATE. Use DELETE, or a"
                            + " publication without truncates (publish = 'insert, update, delete', as the source creates it)");
                }
            }
        } else if (m instanceof PgOutputMessage.Insert || m instanceof PgOutputMessage.Update || m instanceof PgOutputMessage.Delete) {
            if (skipTransaction) {
                return;
            }
            openChanges++;
            if (openCommitLsn == skipCommitLsn && openChanges <= skipChanges) {
                return; // emitted before the checkpoint this reader was restored from
            }
            change(m, out, at);
        }
    }

    private void relation(PgOutputMessage.Relation r) {
        for (CdcTable t : source.tables) {
            if (t.schema.equals(r.schema()) && t.name.equals(r.name())) {
                if (!t.columns.equals(r.columns())) {
                    throw new IllegalStateException("table " + t.qualifiedName() + " changed its columns from " + t.columns + " to "
                            + r.columns() + " while it was captured: the source's row type is fixed when it is built. Restart the job"
                            + " without its checkpoint to take a new snapshot with the new columns");
                }
                relations.put(r.oid(), t);
                return;
            }
        }
        relations.put(r.oid(), null); // in the publication, but not captured by this source
    }

    private void change(PgOutputMessage m, ReaderOutput<Row> out, LogSequenceNumber at) {
        String where = "LSN " + at + " (commit " + LogSequenceNumber.valueOf(openCommitLsn) + ")";
        long ts = openCommitMillis;
        if (m instanceof PgOutputMessage.Insert i) {
            CdcTable t = table(i.relation());
            if (t != null) {
                out.collect(t.row(RowKind.INSERT, values(t, i.row(), null, where), where), ts);
            }
        } else if (m instanceof PgOutputMessage.Update u) {
            CdcTable t = table(u.relation());
            if (t == null) {
                return;
            }
            if (u.oldKind() == 'O') {
                out.collect(t.row(RowKind.UPDATE_BEFORE, values(t, u.old(), null, where), where), ts);
                out.collect(t.row(RowKind.UPDATE_AFTER, values(t, u.row(), u.old(), where), where), ts);
            } else if (u.oldKind() == 'K') {
                out.collect(t.row(RowKind.DELETE, values(t, u.old(), null, where), where), ts);
                out.collect(t.row(RowKind.INSERT, values(t, u.row(), null, where), where), ts);
            } else {
                out.collect(t.row(RowKind.UPDATE_AFTER, values(t, u.row(), null, where), where), ts);
            }
        } else if (m instanceof PgOutputMessage.Delete d) {
            CdcTable t = table(d.relation());
            if (t != null) {
                out.collect(t.row(RowKind.DELETE, values(t, d.old(), null, where), where), ts);
            }
        }
    }

    private CdcTable table(int oid) {
        if (!relations.containsKey(oid)) {
            throw new IllegalStateException("pgoutput sent a change of relation " + oid + " before describing it");
        }
        return relations.get(oid);
    }

    /** The tuple's values; an unchanged TOASTed value is taken from {@code old} (the whole old row), or fails. */
    private static String[] values(CdcTable t, PgOutputMessage.Tuple tuple, PgOutputMessage.Tuple old, String where) {
        String[] v = tuple.values();
        if (v.length != t.columns.size()) {
            throw new IllegalStateException("table " + t.qualifiedName() + " at " + where + ": a change has " + v.length
                    + " columns, the table " + t.columns.size());
        }
        for (int i = 0; i < v.length; i++) {
            if (tuple.unchanged()[i]) {
                if (old == null || old.unchanged()[i]) {
                    throw new IllegalStateException("table " + t.qualifiedName() + " at " + where + ": the update leaves out the"
                            + " unchanged large value of column '" + t.columns.get(i) + "'; ALTER TABLE " + t.qualifiedName()
                            + " REPLICA IDENTITY FULL makes PostgreSQL send it");
                }
                v = v.clone();
                v[i] = old.values()[i];
            }
        }
        return v;
    }

    // ---- snapshot ------------------------------------------------------------------------------------------------

    private void snapshot(ReaderOutput<Row> out) throws SQLException {
        ensurePublication();
        dropSlotIfThere();
        openReplication();
        ReplicationSlotInfo slot = replication.unwrap(PGConnection.class).getReplicationAPI().createReplicationSlot().logical()
                .withSlotName(source.slot).withOutputPlugin("pgoutput").make();
        long rows = 0;
        try (Connection c = source.connection.open(false)) {
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            c.setReadOnly(true);
            try (Statement s = c.createStatement()) {
                s.execute("SET TRANSACTION SNAPSHOT '" + slot.getSnapshotName() + "'");
                long at;
                try (ResultSet r = s.executeQuery("SELECT (extract(epoch from now()) * 1000)::bigint")) {
                    r.next();
                    at = r.getLong(1);
                }
                String where = "snapshot at " + slot.getConsistentPoint();
                for (CdcTable t : source.tables) {
                    StringBuilder sql = new StringBuilder("SELECT ");
                    for (int i = 0; i < t.columns.size(); i++) {
                        sql.append(i == 0 ? "" : ", ").append(CdcTable.quote(t.columns.get(i))).append("::text");
                    }
                    sql.append(" FROM ").append(t.quotedName());
                    s.setFetchSize(1000);
                    try (ResultSet r = s.executeQuery(sql.toString())) {
                        String[] values = new String[t.columns.size()];
                        while (r.next()) {
                            for (int i = 0; i < values.length; i++) {
                                values[i] = r.getString(i + 1);
                            }
                            out.collect(t.row(RowKind.INSERT, values, where), at);
                            rows++;
                        }
                    }
                }
            }
            c.commit();
        }
        snapshotDone = true;
        committedEnd = slot.getConsistentPoint().asLong();
        LOG.info("{}: slot {} created at {}, snapshot of {} rows of {} emitted", context.sourceName(), source.slot,
                slot.getConsistentPoint(), rows, source.tables.stream().map(CdcTable::qualifiedName).toList());
    }

    private void ensurePublication() throws SQLException {
        try (Connection c = connectWithRetries(true)) {
            boolean exists;
            try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM pg_publication WHERE pubname = ?")) {
                s.setString(1, source.publication);
                try (ResultSet r = s.executeQuery()) {
                    exists = r.next();
                }
            }
            if (!exists) {
                if (!source.createPublication) {
                    throw new IllegalStateException("option 'publication': publication '" + source.publication + "' does not exist and"
                            + " createPublication is false; create it: CREATE PUBLICATION " + source.publication + " FOR TABLE ...");
                }
                List<String> names = source.tables.stream().map(CdcTable::quotedName).toList();
                try (Statement s = c.createStatement()) {
                    s.execute("CREATE PUBLICATION " + CdcTable.quote(source.publication) + " FOR TABLE " + String.join(", ", names)
                            + " WITH (publish = 'insert, update, delete')");
                }
                LOG.info("{}: created publication {} for {}", context.sourceName(), source.publication, names);
                return;
            }
            List<String> missing = new ArrayList<>();
            for (CdcTable t : source.tables) {
                try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM pg_publication_tables WHERE pubname = ? AND schemaname = ? AND tablename = ?")) {
                    s.setString(1, source.publication);
                    s.setString(2, t.schema);
                    s.setString(3, t.name);
                    try (ResultSet r = s.executeQuery()) {
                        if (!r.next()) {
                            missing.add(t.qualifiedName());
                        }
                    }
                }
            }
            if (!missing.isEmpty()) {
                throw new IllegalStateException("option 'publication': publication '" + source.publication + "' does not contain "
                        + missing + "; ALTER PUBLICATION " + source.publication + " ADD TABLE ...");
            }
        }
    }

    /** A fresh start: a slot of that name is from an earlier run, whose position no checkpoint holds. */
    private void dropSlotIfThere() throws SQLException {
        try (Connection c = connectWithRetries(true)) {
            source.backoff.run(context.clock(), "dropping the old replication slot " + source.slot,
                    e -> OBJECT_IN_USE.equals(e.getSQLState()) || SqlErrors.isTransient(e), e -> {}, () -> {
                        try (PreparedStatement s = c.prepareStatement("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = ?")) {
                            s.setString(1, source.slot);
                            s.execute();
                        }
                        return null;
                    });
        }
    }

    // ---- streaming -----------------------------------------------------------------------------------------------

    private void startStream(long from) throws SQLException {
        stream = source.backoff.run(context.clock(), "starting replication from slot " + source.slot,
                e -> OBJECT_IN_USE.equals(e.getSQLState()) || SqlErrors.isTransient(e), e -> closeReplication(), () -> {
                    if (replication == null) {
                        openReplication();
                    }
                    if (!slotExists()) {
                        throw new IllegalStateException("replication slot '" + source.slot + "' does not exist: the changes after "
                                + LogSequenceNumber.valueOf(from) + " that the checkpoint needs are gone. Start the job without its"
                                + " checkpoint to take a new snapshot");
                    }
                    return replication.unwrap(PGConnection.class).getReplicationAPI().replicationStream().logical()
                            .withSlotName(source.slot)
                            .withSlotOption("proto_version", "1")
                            .withSlotOption("publication_names", source.publication)
                            .withStartPosition(LogSequenceNumber.valueOf(from))
                            .withStatusInterval((int) source.statusInterval.toMillis(), TimeUnit.MILLISECONDS)
                            .start();
                });
        LOG.info("{}: streaming slot {} from {}", context.sourceName(), source.slot, LogSequenceNumber.valueOf(from));
    }

    private boolean slotExists() throws SQLException {
        try (Connection c = source.connection.open(true);
                PreparedStatement s = c.prepareStatement("SELECT 1 FROM pg_replication_slots WHERE slot_name = ?")) {
            s.setString(1, source.slot);
            try (ResultSet r = s.executeQuery()) {
                return r.next();
            }
        }
    }

    private void openReplication() throws SQLException {
        Properties p = new Properties();
        p.putAll(sourceProperties());
        PGProperty.REPLICATION.set(p, "database");
        PGProperty.ASSUME_MIN_SERVER_VERSION.set(p, "10");
        PGProperty.PREFER_QUERY_MODE.set(p, "simple");
        PGProperty.CONNECT_TIMEOUT.set(p, 10);
        replication = source.backoff.run(context.clock(), "connecting for replication to " + source.connection.url(), e -> closeReplication(),
                () -> java.sql.DriverManager.getConnection(source.connection.url(), p));
    }

    private Map<String, String> sourceProperties() {
        return source.connection.properties();
    }

    private Connection connectWithRetries(boolean autoCommit) throws SQLException {
        return source.backoff.run(context.clock(), "connecting to " + source.connection.url(), e -> {}, () -> source.connection.open(autoCommit));
    }

    private void closeReplication() {
        if (stream != null) {
            try {
                stream.close();
            } catch (SQLException e) {
                // the connection is being given up
            }
            stream = null;
        }
        ConnectionOptions.closeQuietly(replication);
        replication = null;
    }

    // ---- checkpoints ---------------------------------------------------------------------------------------------

    @Override
    public List<CdcSplit> snapshotState() {
        if (!assigned) {
            return List.of();
        }
        if (!snapshotDone) {
            return List.of(CdcSplit.fresh(source.slot));
        }
        if (openCommitLsn != 0 && !skipTransaction) {
            // inside a transaction: count the changes emitted, including those skipped as emitted before a restore
            return List.of(new CdcSplit(source.slot, true, committedEnd, openCommitLsn, openChanges));
        }
        return List.of(new CdcSplit(source.slot, true, committedEnd, 0, 0));
    }

    @Override
    public List<CdcSplit> snapshotState(long checkpointId) {
        List<CdcSplit> state = snapshotState();
        if (snapshotDone) {
            pendingFlush.put(checkpointId, committedEnd);
        }
        return state;
    }

    /** The checkpoint's position is safe: the server may drop the WAL before it. */
    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        var done = pendingFlush.floorEntry(checkpointId);
        if (done == null) {
            return;
        }
        pendingFlush.headMap(checkpointId, true).clear();
        toFlush = Math.max(toFlush, done.getValue());
        reportFlushed();
    }

    /** Tells the server the newest completed checkpoint's position, if it has not been told yet and a stream is open. */
    private void reportFlushed() throws SQLException {
        if (toFlush > flushed && stream != null && !stream.isClosed()) {
            LogSequenceNumber lsn = LogSequenceNumber.valueOf(toFlush);
            stream.setFlushedLSN(lsn);
            stream.setAppliedLSN(lsn);
            stream.forceUpdateStatus();
            flushed = toFlush;
        }
    }

    @Override
    public void close() {
        closeReplication();
    }
}
