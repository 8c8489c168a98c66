package io.millrace.connector.jdbc;

import io.millrace.api.row.Row;
import io.millrace.connector.jdbc.server.PostgresTestServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * The table the CDC tests capture, a seeded random workload of transactions on it, and the check of a captured
 * changelog: applied to a map it must give the table's contents, and each change must come once, in order per key.
 *
 * <p>Every insert and update of {@code items} takes a fresh value of the sequence {@code item_seq} into column
 * {@code seq}: a row version's identity. A change seen twice, or out of order, shows as a repeated or decreasing
 * {@code seq}.
 */
final class CdcChangelog {
    static final String CREATE = "CREATE SEQUENCE item_seq; CREATE TABLE items (id integer PRIMARY KEY, name text NOT NULL,"
            + " qty bigint NOT NULL, seq bigint NOT NULL, at timestamptz NOT NULL, ok boolean, price double precision, day date);"
            + " ALTER TABLE items REPLICA IDENTITY FULL";
    /** The table's rows in the form of {@link #line}'s values, read with JDBC's own types. */
    static final String CONTENTS = "SELECT id, name, qty, seq, floor(extract(epoch from at) * 1000)::bigint, ok, price,"
            + " day - date '1970-01-01' FROM items ORDER BY id";

    private CdcChangelog() {}

    /** {@code +I|1|name|...}: the kind and the values. */
    static String line(Row r) {
        StringBuilder b = new StringBuilder(r.kind().shortString());
        for (int i = 0; i < r.size(); i++) {
            b.append('|').append(r.getField(i));
        }
        return b.toString();
    }

    /** The table's rows, by id, as lines of values without the kind. */
    static Map<Integer, String> table(PostgresTestServer server) {
        Map<Integer, String> rows = new TreeMap<>();
        try (Connection c = server.connect(); Statement s = c.createStatement(); ResultSet r = s.executeQuery(CONTENTS)) {
            int n = r.getMetaData().getColumnCount();
            while (r.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    b.append(i == 1 ? "" : "|").append(r.getObject(i));
                }
                rows.put(r.getInt(1), b.toString());
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return rows;
    }

    /**
     * Applies a full changelog (REPLICA IDENTITY FULL) to an empty map: a {@code +I} of a key not held, a {@code -U}
     * or {@code -D} equal to the row held, a {@code +U} right after the {@code -U} of its key. Every row version's
     * {@code seq} must be new and larger than its key's previous one. Fails with the offending line otherwise.
     */
    static Map<Integer, String> apply(List<String> lines) {
        Map<Integer, String> rows = new TreeMap<>();
        Map<Integer, Long> lastSeq = new HashMap<>();
        Set<Long> seqs = new HashSet<>();
        Integer retracted = null;
        for (String line : lines) {
            String kind = line.substring(0, 2);
            String values = line.substring(3);
            String[] f = values.split("\\|", -1);
            int id = Integer.parseInt(f[0]);
            long seq = Long.parseLong(f[3]);
            switch (kind) {
                case "+I", "+U" -> {
                    if (kind.equals("+I") ? rows.containsKey(id) : !Integer.valueOf(id).equals(retracted)) {
                        throw new AssertionError("out of order: " + line + " (held: " + rows.get(id) + ")");
                    }
                    if (!seqs.add(seq)) {
                        throw new AssertionError("a change came twice: seq " + seq + " again in " + line);
                    }
                    if (lastSeq.getOrDefault(id, -1L) >= seq) {
                        throw new AssertionError("out of order per key: " + line + " after seq " + lastSeq.get(id));
                    }
                    lastSeq.put(id, seq);
                    rows.put(id, values);
                    retracted = null;
                }
                case "-U", "-D" -> {
                    if (!values.equals(rows.get(id)) || retracted != null) {
                        throw new AssertionError("retracts a row not held: " + line + " (held: " + rows.get(id) + ")");
                    }
                    rows.remove(id);
                    retracted = kind.equals("-U") ? id : null;
                }
                default -> throw new AssertionError("no kind: " + line);
            }
        }
        if (retracted != null) {
            throw new AssertionError("the changelog ends between the -U and the +U of " + retracted);
        }
        return rows;
    }

    /** Random transactions on {@code items}: inserts of new ids, updates and deletes of held ones; one writer. */
    static final class Workload {
        private final Random random;
        private final List<Integer> held = new ArrayList<>();
        private int nextId;

        Workload(long seed) {
            this.random = new Random(seed);
        }

        /** Runs {@code transactions} transactions of one to four statements each. */
        void run(Connection c, int transactions) throws SQLException {
            boolean auto = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                for (int t = 0; t < transactions; t++) {
                    int statements = 1 + random.nextInt(4);
                    for (int s = 0; s < statements; s++) {
                        statement(c);
                    }
                    c.commit();
                }
            } finally {
                c.setAutoCommit(auto);
            }
        }

        private void statement(Connection c) throws SQLException {
            int op = held.size() < 5 ? 0 : random.nextInt(10);
            if (op < 4) {
                int id = nextId++;
                try (PreparedStatement s = c.prepareStatement("INSERT INTO items VALUES (?, ?, ?, nextval('item_seq'),"
                        + " timestamptz '2026-01-01 00:00:00+00' + ? * interval '1 microsecond', ?, ?, date '2026-01-01' + ?)")) {
                    s.setInt(1, id);
                    s.setString(2, "item '" + id + "' — ü");
                    s.setLong(3, random.nextInt(1000));
                    s.setLong(4, random.nextLong(1_000_000_000_000L));
                    if (random.nextInt(4) == 0) {
                        s.setNull(5, java.sql.Types.BOOLEAN);
                        s.setNull(6, java.sql.Types.DOUBLE);
                    } else {
                        s.setBoolean(5, random.nextBoolean());
                        s.setDouble(6, random.nextDouble() * 1000);
                    }
                    s.setInt(7, random.nextInt(400));
                    s.executeUpdate();
                }
                held.add(id);
            } else if (op < 8) {
                int id = held.get(random.nextInt(held.size()));
                try (PreparedStatement s = c.prepareStatement("UPDATE items SET qty = ?, seq = nextval('item_seq'), price = ?,"
                        + " at = at + interval '1 second' WHERE id = ?")) {
                    s.setLong(1, random.nextInt(1000));
                    s.setDouble(2, random.nextGaussian());
                    s.setInt(3, id);
                    s.executeUpdate();
                }
            } else {
                int id = held.remove(random.nextInt(held.size()));
                try (PreparedStatement s = c.prepareStatement("DELETE FROM items WHERE id = ?")) {
                    s.setInt(1, id);
                    s.executeUpdate();
                }
            }
        }
    }
}
