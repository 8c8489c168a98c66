package io.millrace.connector.jdbc;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The messages of PostgreSQL's {@code pgoutput} logical decoding plugin, protocol version 1, decoded from the bytes
 * of one replication message ("Logical Replication Message Formats" in PostgreSQL's documentation). All integers are
 * big-endian; strings end with a zero byte; column values come in text form.
 */
sealed interface PgOutputMessage {
    /** Microseconds between 1970-01-01 and 2000-01-01, PostgreSQL's epoch for timestamps. */
    long PG_EPOCH_MICROS = 946_684_800_000_000L;

    /** A transaction starts; {@code commitLsn} is the LSN of its commit record, {@code commitMillis} its commit time. */
    record Begin(long commitLsn, long commitMillis, int xid) implements PgOutputMessage {}

    /** A transaction ends; {@code endLsn} is the end of its commit record, where a replay after it starts. */
    record Commit(long commitLsn, long endLsn, long commitMillis) implements PgOutputMessage {}

    /** The columns of a relation, sent before its first change in a session and after every change of its schema. */
    record Relation(int oid, String schema, String name, char replicaIdentity, List<String> columns, int[] typeOids) implements PgOutputMessage {}

    record Insert(int relation, Tuple row) implements PgOutputMessage {}

    /** {@code old} is null, the key ('K', when the key changed) or the whole old row ('O', REPLICA IDENTITY FULL). */
    record Update(int relation, char oldKind, Tuple old, Tuple row) implements PgOutputMessage {}

    /** {@code old} is the key ('K') or the whole old row ('O'). */
    record Delete(int relation, char oldKind, Tuple old) implements PgOutputMessage {}

    record Truncate(int[] relations) implements PgOutputMessage {}

    /** A message of no concern to a changelog: Origin, Type, logical decoding messages. */
    record Other(char type) implements PgOutputMessage {}

    /**
     * A row's column values in text form; {@code values[i]} is null for SQL NULL and also when {@code unchanged[i]}:
     * an unchanged TOASTed value the message leaves out.
     */
    record Tuple(String[] values, boolean[] unchanged) {}

    /** Decodes one message; fails naming the message type and the position when the bytes are not what v1 sends. */
    static PgOutputMessage decode(ByteBuffer b) {
        char type = (char) b.get();
        try {
            switch (type) {
                case 'B':
                    return new Begin(b.getLong(), millis(b.getLong()), b.getInt());
                case 'C': {
                    b.get(); // flags, unused
                    long commit = b.getLong();
                    long end = b.getLong();
                    return new Commit(commit, end, millis(b.getLong()));
                }
                case 'R': {
                    int oid = b.getInt();
                    String schema = string(b);
                    String name = string(b);
                    char identity = (char) b.get();
                    int n = b.getShort();
                    List<String> columns = new ArrayList<>(n);
                    int[] types = new int[n];
                    for (int i = 0; i < n; i++) {
                        b.get(); // flags: 1 for a key column
                        columns.add(string(b));
                        types[i] = b.getInt();
                        b.getInt(); // type modifier
                    }
                    return new Relation(oid, schema, name, identity, columns, types);
                }
                case 'I': {
                    int rel = b.getInt();
                    expect(b, 'N', type);
                    return new Insert(rel, tuple(b));
                }
                case 'U': {
                    int rel = b.getInt();
                    char next = (char) b.get();
                    char oldKind = 0;
                    Tuple old = null;
                    if (next == 'K' || next == 'O') {
                        oldKind = next;
                        old = tuple(b);
                        next = (char) b.get();
                    }
                    if (next != 'N') {
                        throw new IllegalStateException("expected 'N' before the new row, found '" + next + "'");
                    }
                    return new Update(rel, oldKind, old, tuple(b));
                }
                case 'D': {
                    int rel = b.getInt();
                    char oldKind = (char) b.get();
                    if (oldKind != 'K' && oldKind != 'O') {
                        throw new IllegalStateException("expected 'K' or 'O' before the old row, found '" + oldKind + "'");
                    }
                    return new Delete(rel, oldKind, tuple(b));
                }
                case 'T': {
                    int n = b.getInt();
                    b.get(); // options: CASCADE, RESTART IDENTITY
                    int[] rels = new int[n];
                    for (int i = 0; i < n; i++) {
                        rels[i] = b.getInt();
                    }
                    return new Truncate(rels);
                }
                default:
                    return new Other(type);
            }
        } catch (RuntimeException e) {
            throw new IllegalStateException("pgoutput message '" + type + "' does not decode at byte " + b.position() + ": " + e, e);
        }
    }

    private static void expect(ByteBuffer b, char wanted, char type) {
        char found = (char) b.get();
        if (found != wanted) {
            throw new IllegalStateException("message '" + type + "': expected '" + wanted + "', found '" + found + "'");
        }
    }

    private static long millis(long pgMicros) {
        return Math.floorDiv(pgMicros + PG_EPOCH_MICROS, 1000);
    }

    private static String string(ByteBuffer b) {
        int start = b.position();
        int end = start;
        while (b.get(end) != 0) {
            end++;
        }
        String s = new String(b.array(), b.arrayOffset() + start, end - start, StandardCharsets.UTF_8);
        b.position(end + 1);
        return s;
    }

    private static Tuple tuple(ByteBuffer b) {
        int n = b.getShort();
        String[] values = new String[n];
        boolean[] unchanged = new boolean[n];
        for (int i = 0; i < n; i++) {
            char kind = (char) b.get();
            switch (kind) {
                case 'n' -> values[i] = null;
                case 'u' -> unchanged[i] = true;
                case 't' -> {
                    int len = b.getInt();
                    values[i] = new String(b.array(), b.arrayOffset() + b.position(), len, StandardCharsets.UTF_8);
                    b.position(b.position() + len);
                }
                default -> throw new IllegalStateException("column " + i + " has value kind '" + kind + "' (binary values are not asked for)");
            }
        }
        return new Tuple(values, unchanged);
    }
}
