package io.millrace.connector.jdbc;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowBuilder;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import java.io.Serializable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * A captured table as the catalog describes it: its columns with their PostgreSQL types, the {@link RowType} its rows
 * have, its key columns and its replica identity. Values arrive as PostgreSQL's text output of each column (in the
 * snapshot and in pgoutput's messages alike) and become row fields by the column's type; see {@link #fieldType}.
 */
final class CdcTable implements Serializable {
    private static final long serialVersionUID = 1L;

    final String schema;
    final String name;
    final List<String> columns;
    final int[] typeOids;
    final RowType rowType;
    final int[] keyColumns;
    /** True for REPLICA IDENTITY FULL: updates and deletes carry the whole old row. */
    final boolean fullIdentity;

    private CdcTable(String schema, String name, List<String> columns, int[] typeOids, RowType rowType, int[] keyColumns, boolean fullIdentity) {
        this.schema = schema;
        this.name = name;
        this.columns = List.copyOf(columns);
        this.typeOids = typeOids;
        this.rowType = rowType;
        this.keyColumns = keyColumns;
        this.fullIdentity = fullIdentity;
    }

    /** {@code schema.name}, quoted for SQL. */
    String quotedName() {
        return quote(schema) + "." + quote(name);
    }

    String qualifiedName() {
        return schema + "." + name;
    }

    static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /** Reads table {@code table} ({@code name} or {@code schema.name}, as SQL would resolve it) from the catalog. */
    static CdcTable read(Connection c, String table) throws SQLException {
        String schema;
        String name;
        char identity;
        long oid;
        try (PreparedStatement s = c.prepareStatement("SELECT n.nspname, c.relname, c.relreplident, c.oid FROM pg_class c"
                + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = to_regclass(?)")) {
            s.setString(1, table);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    throw new IllegalArgumentException("option 'table': no table '" + table + "' in the database");
                }
                schema = r.getString(1);
                name = r.getString(2);
                identity = r.getString(3).charAt(0);
                oid = r.getLong(4);
            }
        }
        List<String> columns = new ArrayList<>();
        List<Integer> oids = new ArrayList<>();
        List<Boolean> notNull = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT attname, atttypid, attnotnull FROM pg_attribute"
                + " WHERE attrelid = ? AND attnum > 0 AND NOT attisdropped ORDER BY attnum")) {
            s.setLong(1, oid);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    columns.add(r.getString(1));
                    oids.add(r.getInt(2));
                    notNull.add(r.getBoolean(3));
                }
            }
        }
        // the key: the replica identity index when the table has one, else the primary key
        List<String> key = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
                + " AND a.attnum = ANY(i.indkey) WHERE i.indrelid = ? AND " + (identity == 'i' ? "i.indisreplident" : "i.indisprimary")
                + " ORDER BY array_position(i.indkey::int2[], a.attnum)")) {
            s.setLong(1, oid);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    key.add(r.getString(1));
                }
            }
        }
        String where = "table '" + schema + "." + name + "'";
        if (identity == 'n' || (identity == 'd' && key.isEmpty())) {
            throw new IllegalArgumentException(where + " has no replica identity (REPLICA IDENTITY NOTHING, or DEFAULT without a"
                    + " primary key): PostgreSQL cannot publish its updates and deletes. Give it a primary key, or run"
                    + " ALTER TABLE " + schema + "." + name + " REPLICA IDENTITY FULL");
        }
        boolean full = identity == 'f';
        int[] keyIdx = key.stream().mapToInt(columns::indexOf).toArray();
        RowType.Builder type = RowType.builder();
        for (int i = 0; i < columns.size(); i++) {
            boolean isKey = key.contains(columns.get(i));
            // without the whole old row, a delete carries the key only: the other fields must be able to be null
            boolean required = notNull.get(i) && (full || isKey);
            FieldType t = fieldType(oids.get(i));
            if (required) {
                type.field(columns.get(i), t);
            } else {
                type.nullableField(columns.get(i), t);
            }
        }
        return new CdcTable(schema, name, columns, oids.stream().mapToInt(Integer::intValue).toArray(), type.build(), keyIdx, full);
    }

    /**
     * Table {@code table} for lookups by {@code keyColumns}: its columns typed as for change data capture, each
     * nullable as the catalog says.
     */
    static CdcTable forLookup(Connection c, String table, List<String> keyColumns) throws SQLException {
        String schema;
        String name;
        long oid;
        try (PreparedStatement s = c.prepareStatement("SELECT n.nspname, c.relname, c.oid FROM pg_class c"
                + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = to_regclass(?)")) {
            s.setString(1, table);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    throw new IllegalArgumentException("option 'table': no table '" + table + "' in the database");
                }
                schema = r.getString(1);
                name = r.getString(2);
                oid = r.getLong(3);
            }
        }
        List<String> columns = new ArrayList<>();
        List<Integer> oids = new ArrayList<>();
        RowType.Builder type = RowType.builder();
        try (PreparedStatement s = c.prepareStatement("SELECT attname, atttypid, attnotnull FROM pg_attribute"
                + " WHERE attrelid = ? AND attnum > 0 AND NOT attisdropped ORDER BY attnum")) {
            s.setLong(1, oid);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    columns.add(r.getString(1));
                    oids.add(r.getInt(2));
                    if (r.getBoolean(3)) {
                        type.field(r.getString(1), fieldType(r.getInt(2)));
                    } else {
                        type.nullableField(r.getString(1), fieldType(r.getInt(2)));
                    }
                }
            }
        }
        int[] key = new int[keyColumns.size()];
        for (int i = 0; i < key.length; i++) {
            key[i] = columns.indexOf(keyColumns.get(i));
            if (key[i] < 0) {
                throw new IllegalArgumentException("option 'keyColumns': table " + schema + "." + name + " has no column '"
                        + keyColumns.get(i) + "'; its columns are " + columns);
            }
        }
        return new CdcTable(schema, name, columns, oids.stream().mapToInt(Integer::intValue).toArray(), type.build(), key, true);
    }

    /**
     * The field type of a PostgreSQL type: {@code boolean} BOOLEAN; {@code smallint}, {@code integer} INT;
     * {@code bigint} BIGINT; {@code real} FLOAT; {@code double precision} DOUBLE; {@code timestamptz} and
     * {@code timestamp} (read as UTC) TIMESTAMP; {@code date} DATE; {@code time} TIME; every other type (text,
     * varchar, numeric, uuid, json…) STRING, as PostgreSQL prints it.
     */
    static FieldType fieldType(int oid) {
        switch (oid) {
            case 16: return FieldType.BOOLEAN;
            case 21: case 23: return FieldType.INT;
            case 20: return FieldType.BIGINT;
            case 700: return FieldType.FLOAT;
            case 701: return FieldType.DOUBLE;
            case 1114: case 1184: return FieldType.TIMESTAMP;
            case 1082: return FieldType.DATE;
            case 1083: return FieldType.TIME;
            default: return FieldType.STRING;
        }
    }

    /**
     * A row of {@code kind} from the text values of the columns (null for SQL NULL). Fails naming the table, the
     * column and the value when a value does not read as its type, or when a {@code NOT NULL} field has no value.
     */
    Row row(RowKind kind, String[] values, String lsnForErrors) {
        RowBuilder b = Row.builder(rowType);
        for (int i = 0; i < values.length; i++) {
            String v = values[i];
            if (v == null) {
                if (!rowType.isNullable(i)) {
                    throw new IllegalStateException("table " + qualifiedName() + " at " + lsnForErrors + ": column '" + columns.get(i)
                            + "' has no value in a " + kind.shortString() + " change (REPLICA IDENTITY FULL gives old rows their values)");
                }
                b.setNull(i);
                continue;
            }
            try {
                set(b, i, rowType.type(i), typeOids[i], v);
            } catch (RuntimeException e) {
                throw new IllegalStateException("table " + qualifiedName() + " at " + lsnForErrors + ": column '" + columns.get(i)
                        + "' value '" + v + "' does not read as " + rowType.type(i) + ": " + e.getMessage(), e);
            }
        }
        return b.build(kind);
    }

    private static void set(RowBuilder b, int i, FieldType type, int oid, String v) {
        switch (type) {
            case BOOLEAN -> b.setBoolean(i, v.equals("t") || v.equals("true"));
            case INT -> b.setInt(i, Integer.parseInt(v));
            case BIGINT -> b.setLong(i, Long.parseLong(v));
            case FLOAT -> b.setFloat(i, Float.parseFloat(v));
            case DOUBLE -> b.setDouble(i, Double.parseDouble(v));
            case TIMESTAMP -> b.setTimestamp(i, oid == 1184 ? instantMillis(v) : LocalDateTime.parse(v.replace(' ', 'T')).toInstant(ZoneOffset.UTC).toEpochMilli());
            case DATE -> b.setDate(i, (int) LocalDate.parse(v).toEpochDay());
            case TIME -> b.setTime(i, (int) (LocalTime.parse(v).toNanoOfDay() / 1_000_000L));
            default -> b.setString(i, v);
        }
    }

    /** {@code 2026-12-04 21:11:11.123+00} or {@code …+05:30} (PostgreSQL's ISO output) in milliseconds since the epoch. */
    static long instantMillis(String v) {
        String s = v.replace(' ', 'T');
        int sign = Math.max(s.lastIndexOf('+'), s.lastIndexOf('-'));
        if (sign < s.indexOf('T')) {
            throw new DateTimeParseException("no offset", v, 0);
        }
        if (s.length() - sign == 3) {
            s = s + ":00";
        }
        return OffsetDateTime.parse(s).toInstant().toEpochMilli();
    }
}
