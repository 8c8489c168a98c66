package io.millrace.connector.jdbc;

import io.millrace.api.async.AsyncFunction;
import io.millrace.api.async.ResultFuture;
import io.millrace.api.functions.RichFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Looks rows of a PostgreSQL table up by key columns, for processing-time lookup joins through async I/O: an
 * {@link AsyncFunction} from a key (the key columns' values in order, {@link #key}) to the table's rows with that key,
 * as {@link Row}s typed from the catalog like {@link PostgresCdcSource}'s ({@link #rowType()}). None is a miss.
 *
 * <p>Put an {@link io.millrace.api.async.AsyncLookupCache} in front of it for the cache (maximum entries, time to live,
 * whether misses are cached). Each subtask opens {@code connections} connections (default 2) and as many threads, which
 * run the lookups with one prepared {@code SELECT ... WHERE k1 = ? AND ...}; a lookup waits for a free connection on
 * those threads, never on the task's. A failed query completes the request exceptionally with the database's message
 * (the async retry strategy may retry it); a broken connection is replaced on the next lookup.
 */
public final class PostgresLookup implements AsyncFunction<List<Object>, Row>, RichFunction {
    private static final long serialVersionUID = 1L;

    private final ConnectionOptions connection;
    private final CdcTable table;
    private final int connections;
    private final String sql;

    private transient ExecutorService threads;
    private transient BlockingQueue<Connection> idle;
    private transient AtomicLong queries;

    private PostgresLookup(Builder b, CdcTable table) {
        this.connection = new ConnectionOptions(b.url, b.properties);
        this.table = table;
        this.connections = b.connections;
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < table.columns.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(CdcTable.quote(table.columns.get(i))).append("::text");
        }
        sql.append(" FROM ").append(table.quotedName()).append(" WHERE ");
        for (int i = 0; i < table.keyColumns.length; i++) {
            sql.append(i == 0 ? "" : " AND ").append(CdcTable.quote(table.columns.get(table.keyColumns[i]))).append(" = ?");
        }
        this.sql = sql.toString();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A key: the values of the key columns, in the order they were given. */
    public static List<Object> key(Object... values) {
        return Arrays.asList(values.clone());
    }

    /** The type of the rows looked up: every column of the table, typed and nullable as the catalog says. */
    public RowType rowType() {
        return table.rowType;
    }

    /** The queries this subtask's instance has sent, for tests and metrics. */
    public long queries() {
        return queries == null ? 0 : queries.get();
    }

    @Override
    public void open(RuntimeContext context) {
        threads = Executors.newFixedThreadPool(connections, r -> {
            Thread t = new Thread(r, "postgres-lookup-" + table.name + "-" + context.subtaskIndex());
            t.setDaemon(true);
            return t;
        });
        idle = new ArrayBlockingQueue<>(connections);
        queries = new AtomicLong();
    }

    @Override
    public void asyncInvoke(List<Object> key, ResultFuture<Row> result) {
        if (key.size() != table.keyColumns.length) {
            throw new IllegalArgumentException("a lookup key of " + table.qualifiedName() + " has " + table.keyColumns.length
                    + " values, not " + key.size() + ": " + key);
        }
        try {
            threads.execute(() -> {
                try {
                    result.complete(query(key));
                } catch (SQLException e) {
                    result.completeExceptionally(new SQLException("lookup of " + key + " in " + table.qualifiedName() + ": "
                            + SqlErrors.message(e), SqlErrors.state(e), e));
                } catch (RuntimeException e) {
                    result.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new IllegalStateException("the lookup of " + table.qualifiedName() + " is closed", e));
        }
    }

    /** Runs on a lookup thread: takes an idle connection or opens one, and gives it back unless it broke. */
    private List<Row> query(List<Object> key) throws SQLException {
        Connection c = idle.poll();
        if (c == null) {
            c = connection.open(true);
        }
        boolean healthy = false;
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < key.size(); i++) {
                s.setObject(i + 1, key.get(i));
            }
            queries.incrementAndGet();
            List<Row> rows = new ArrayList<>(1);
            try (ResultSet r = s.executeQuery()) {
                String[] values = new String[table.columns.size()];
                while (r.next()) {
                    for (int i = 0; i < values.length; i++) {
                        values[i] = r.getString(i + 1);
                    }
                    rows.add(table.row(RowKind.INSERT, values, "lookup of " + key));
                }
            }
            healthy = true;
            return rows;
        } catch (SQLException e) {
            healthy = !SqlErrors.isTransient(e);
            throw e;
        } finally {
            if (!healthy || !idle.offer(c)) {
                ConnectionOptions.closeQuietly(c);
            }
        }
    }

    @Override
    public void close() {
        if (threads != null) {
            threads.shutdownNow();
        }
        if (idle != null) {
            Connection c;
            while ((c = idle.poll()) != null) {
                ConnectionOptions.closeQuietly(c);
            }
        }
    }

    /** Options of a {@link PostgresLookup}. */
    public static final class Builder {
        private String url;
        private final Map<String, String> properties = new LinkedHashMap<>();
        private String table;
        private List<String> keyColumns = List.of();
        private int connections = 2;

        private Builder() {}

        /** {@code jdbc:postgresql://host:port/database} (required). */
        public Builder url(String value) {
            this.url = value;
            return this;
        }

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

        /** The table, {@code name} or {@code schema.name} (required). */
        public Builder table(String value) {
            this.table = value;
            return this;
        }

        /** The columns a key gives values of, in order (required); usually the primary key. */
        public Builder keyColumns(String... columns) {
            this.keyColumns = List.of(columns);
            return this;
        }

        /** Connections, and threads, per subtask (default 2). */
        public Builder connections(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("option 'connections' must be at least 1, was " + value);
            }
            this.connections = value;
            return this;
        }

        /** Reads the table's columns from the database and builds the lookup. */
        public PostgresLookup build() {
            if (url == null || !url.startsWith("jdbc:postgresql:")) {
                throw new IllegalArgumentException("option 'url' must be a jdbc:postgresql://host:port/database URL, was " + url);
            }
            if (table == null || table.isBlank()) {
                throw new IllegalArgumentException("option 'table' is required");
            }
            if (keyColumns.isEmpty()) {
                throw new IllegalArgumentException("option 'keyColumns': name the columns a key gives values of");
            }
            ConnectionOptions options = new ConnectionOptions(url, properties);
            try (Connection c = options.open(true)) {
                return new PostgresLookup(this, CdcTable.forLookup(c, table, keyColumns));
            } catch (SQLException e) {
                throw new IllegalStateException("cannot read the columns of " + table + " at " + url + ": " + SqlErrors.message(e), e);
            }
        }
    }
}
