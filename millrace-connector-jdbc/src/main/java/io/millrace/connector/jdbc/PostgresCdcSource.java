package io.millrace.connector.jdbc;

import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.api.source.Boundedness;
import io.millrace.api.source.Source;
import io.millrace.api.source.SourceReader;
import io.millrace.api.source.SourceReaderContext;
import io.millrace.api.source.VersionedCodec;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.postgresql.replication.LogSequenceNumber;

/**
 * Change data capture from PostgreSQL: the rows of one or more tables as a changelog of {@link Row}s, read from
 * logical replication with the {@code pgoutput} plugin. The source starts with a consistent snapshot of the tables
 * (a {@code +I} per row, read in the snapshot the replication slot exported when it was created), then streams every
 * committed change from the slot's consistent point on, transaction by transaction in commit order: {@code +I} for
 * an insert, {@code -U}/{@code +U} for an update, {@code -D} for a delete. Each change carries its transaction's
 * commit time as its timestamp; the snapshot's rows the time of the snapshot.
 *
 * <p>The row type of a table comes from the catalog when the source is built ({@link #rowType(String)}): see
 * {@link CdcTable#fieldType} for the types. What updates and deletes carry depends on the table's replica identity:
 * with {@code REPLICA IDENTITY FULL} the whole old row ({@code -U} before every {@code +U}, a {@code -D} with all
 * values: a full changelog); with the default (the primary key) only the key, so an update is a {@code +U} of the new
 * row alone, a delete a {@code -D} with the key's values and nulls elsewhere (an upsert changelog), and an update that
 * changes the key a {@code -D} of the old key and a {@code +I} of the new row.
 *
 * <p>Exactly once: the position (the end LSN of the last transaction emitted, and how far into an open one) is in
 * every checkpoint, and the slot's confirmed flush LSN moves to a checkpoint's position only when that checkpoint has
 * completed, so the server keeps every change a restore may need. A restored source streams from its checkpoint's
 * position and skips what it had emitted before it. The snapshot is emitted in one piece: a checkpoint falls before
 * it (a restore takes a new snapshot, on a new slot) or after it.
 *
 * <p>One reader reads the slot (parallelism 1). Built with {@link #builder()}; building reads the tables' columns
 * from the database.
 */
public final class PostgresCdcSource implements Source<Row, CdcSplit> {
    private static final long serialVersionUID = 1L;

    final ConnectionOptions connection;
    final List<CdcTable> tables;
    final String slot;
    final String publication;
    final boolean createPublication;
    final long endAfter;
    final Duration statusInterval;
    final Backoff backoff;

    private PostgresCdcSource(Builder b, List<CdcTable> tables) {
        this.connection = new ConnectionOptions(b.url, b.properties);
        this.tables = List.copyOf(tables);
        this.slot = b.slot;
        this.publication = b.publication;
        this.createPublication = b.createPublication;
        this.endAfter = b.endAfter;
        this.statusInterval = b.statusInterval;
        this.backoff = new Backoff(Duration.ofMillis(50), Duration.ofSeconds(1), b.retryTimeout);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The row type of a captured table, named as given to {@link Builder#table} or as {@code schema.name}. */
    public RowType rowType(String table) {
        for (CdcTable t : tables) {
            if (t.name.equals(table) || t.qualifiedName().equals(table)) {
                return t.rowType;
            }
        }
        throw new IllegalArgumentException("the source captures no table '" + table + "'; it captures " + tables.stream().map(t -> t.qualifiedName()).toList());
    }

    /** The key columns of a captured table: its replica identity index's or its primary key's, in index order. */
    public List<String> keyColumns(String table) {
        RowType type = rowType(table);
        for (CdcTable t : tables) {
            if (t.rowType == type) {
                List<String> key = new ArrayList<>();
                for (int i : t.keyColumns) {
                    key.add(t.columns.get(i));
                }
                return key;
            }
        }
        throw new AssertionError(table);
    }

    @Override
    public Boundedness boundedness() {
        return endAfter == Long.MAX_VALUE ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED;
    }

    @Override
    public List<CdcSplit> createSplits(int parallelism) {
        return List.of(CdcSplit.fresh(slot));
    }

    @Override
    public int maxParallelism() {
        return 1;
    }

    @Override
    public SourceReader<Row, CdcSplit> createReader(SourceReaderContext context) {
        return new CdcReader(this, context);
    }

    @Override
    public VersionedCodec<CdcSplit> splitCodec() {
        return new CdcSplit.Codec();
    }

    /** Options of a {@link PostgresCdcSource}. */
    public static final class Builder {
        private String url;
        private final Map<String, String> properties = new LinkedHashMap<>();
        private final List<String> tables = new ArrayList<>();
        private String slot;
        private String publication;
        private boolean createPublication = true;
        private long endAfter = Long.MAX_VALUE;
        private Duration statusInterval = Duration.ofSeconds(10);
        private Duration retryTimeout = Duration.ofSeconds(60);

        private Builder() {}

        /** {@code jdbc:postgresql://host:port/database} (required). */
        public Builder url(String value) {
            this.url = value;
            return this;
        }

        /** The user; it needs the REPLICATION attribute (or to be a superuser) and SELECT on the tables. */
        public Builder user(String value) {
            properties.put("user", Objects.requireNonNull(value, "user"));
            return this;
        }

        public Builder password(String value) {
            properties.put("password", Objects.requireNonNull(value, "password"));
            return this;
        }

        /** A driver property, e.g. {@code ssl=true}. */
        public Builder property(String name, String value) {
            properties.put(name, value);
            return this;
        }

        /** A table to capture, {@code name} or {@code schema.name} (at least one). */
        public Builder table(String value) {
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("option 'table' needs a table name");
            }
            tables.add(value);
            return this;
        }

        /**
         * The replication slot (required): letters, digits and underscores, as PostgreSQL allows. The source creates it
         * when it starts without a checkpoint (dropping a slot of that name left by an earlier run) and uses it on
         * restore; drop it when the job is retired ({@code SELECT pg_drop_replication_slot('name')}), or the server
         * keeps WAL for it.
         */
        public Builder slot(String value) {
            this.slot = value;
            return this;
        }

        /** The publication to read (default: the slot's name with {@code _pub}). */
        public Builder publication(String value) {
            this.publication = value;
            return this;
        }

        /**
         * Whether the source creates the publication when it does not exist (default true): {@code CREATE PUBLICATION
         * name FOR TABLE ... WITH (publish = 'insert, update, delete')}. The user then needs CREATE on the database and
         * ownership of the tables; with false the publication must exist and contain the tables.
         */
        public Builder createPublication(boolean value) {
            this.createPublication = value;
            return this;
        }

        /**
         * Makes the source bounded: it ends once it has emitted every transaction that committed before {@code lsn} (like
         * {@code 0/16B3748}, as {@code pg_current_wal_insert_lsn()} gives it): right after the snapshot when the slot's
         * consistent point is at or past it, else after the first transaction whose commit record ends at or past it
         * (a position that no transaction reaches yet makes it wait for the next one). Default: it never ends.
         */
        public Builder endAfter(String lsn) {
            LogSequenceNumber l = LogSequenceNumber.valueOf(Objects.requireNonNull(lsn, "lsn"));
            if (l == LogSequenceNumber.INVALID_LSN) {
                throw new IllegalArgumentException("option 'endAfter': '" + lsn + "' is no LSN (like 0/16B3748)");
            }
            this.endAfter = l.asLong();
            return this;
        }

        /** How often the reader reports its confirmed position to the server (default 10 s); also on each completed checkpoint. */
        public Builder statusInterval(Duration value) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException("option 'statusInterval' must be positive, was " + value);
            }
            this.statusInterval = value;
            return this;
        }

        /** How long the reader tries to connect, and waits for the slot to be free, before it fails (default 60 s). */
        public Builder retryTimeout(Duration value) {
            if (value == null || value.isNegative()) {
                throw new IllegalArgumentException("option 'retryTimeout' must not be negative, was " + value);
            }
            this.retryTimeout = value;
            return this;
        }

        /** Reads the tables' columns from the database and builds the source. */
        public PostgresCdcSource build() {
            if (url == null || !url.startsWith("jdbc:postgresql:")) {
                throw new IllegalArgumentException("option 'url' must be a jdbc:postgresql://host:port/database URL, was " + url);
            }
            if (tables.isEmpty()) {
                throw new IllegalArgumentException("option 'table': name at least one table to capture");
            }
            if (slot == null || !slot.matches("[a-z0-9_]{1,63}")) {
                throw new IllegalArgumentException("option 'slot' must be 1 to 63 lower-case letters, digits and underscores, was " + slot);
            }
            if (publication == null) {
                publication = slot + "_pub";
            }
            if (publication.isEmpty() || publication.contains("'")) {
                throw new IllegalArgumentException("option 'publication' must be a name without quotes, was " + publication);
            }
            List<CdcTable> read = new ArrayList<>();
            try (Connection c = new ConnectionOptions(url, properties).open(true)) {
                for (String t : tables) {
                    CdcTable table = CdcTable.read(c, t);
                    for (CdcTable other : read) {
                        if (other.qualifiedName().equals(table.qualifiedName())) {
                            throw new IllegalArgumentException("option 'table': " + t + " is named twice");
                        }
                        if (other.rowType.equals(table.rowType)) {
                            throw new IllegalArgumentException("option 'table': tables " + other.qualifiedName() + " and " + table.qualifiedName()
                                    + " have the same row type " + table.rowType + ", so their rows could not be told apart: capture them with two sources");
                        }
                    }
                    read.add(table);
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot read the columns of " + tables + " at " + url + ": " + SqlErrors.message(e), e);
            }
            return new PostgresCdcSource(this, read);
        }
    }
}
