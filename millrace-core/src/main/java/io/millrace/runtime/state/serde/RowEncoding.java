package io.millrace.runtime.state.serde;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowBuilder;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import java.util.Arrays;

/**
 * The state encoding of a {@link Row}, with its {@link RowType}, so a stored row reads back without the job
 * telling its type. After the {@link #TAG}:
 *
 * <pre>
 * version      byte: 1
 * type         varint length, then: varint field count; per field: string name, byte {@link FieldType#code()},
 *              byte 1 if nullable else 0
 * kind         byte {@link RowKind#code()}; always 0 (+I) for keys, whose equality ignores the kind
 * null bits    only if the type has a nullable field: (count + 7) / 8 bytes, bit i of byte i / 8 set when field i is null
 * fields       each non-null field in order: BOOLEAN byte 0/1; INT, BIGINT, TIMESTAMP zig-zag varlong;
 *              FLOAT 4 bytes of {@link Float#floatToIntBits}; DOUBLE 8 bytes of {@link Double#doubleToLongBits};
 *              STRING a string
 * </pre>
 *
 * Equal rows give equal bytes in key mode. A reader fails, naming the version, on a version it does not know; new
 * versions will be added beside this one, never change it. One instance per {@link StateSerializer}: it caches the
 * last row type written and read, so a state of rows of one type encodes and decodes the type once. Not
 * thread-safe.
 */
final class RowEncoding {
    static final int TAG = 37;
    static final int VERSION = 1;

    private RowType writtenType;
    private byte[] writtenTypeBytes;
    private boolean writtenHasNullable;
    private RowType readType;
    private byte[] readTypeBytes;
    /** Null bits of the row being read, one per field of {@link #readType}; null if it has no nullable field. */
    private boolean[] readNulls;
    private RowBuilder builder;

    void write(Row row, boolean canonical, ByteWriter out) {
        RowType type = row.type();
        out.writeByte(TAG);
        out.writeByte(VERSION);
        byte[] typeBytes = typeBytes(type);
        out.writeVarInt(typeBytes.length);
        out.write(typeBytes);
        out.writeByte(canonical ? RowKind.INSERT.code() : row.kind().code());
        int n = type.size();
        if (writtenHasNullable) {
            for (int b = 0; b < n; b += 8) {
                int bits = 0;
                for (int i = b; i < Math.min(n, b + 8); i++) {
                    bits |= row.isNullAt(i) ? 1 << (i - b) : 0;
                }
                out.writeByte(bits);
            }
        }
        for (int i = 0; i < n; i++) {
            if (row.isNullAt(i)) {
                continue;
            }
            switch (type.type(i)) {
                case BOOLEAN -> out.writeByte(row.getBoolean(i) ? 1 : 0);
                case INT, DATE, TIME -> out.writeVarLong(row.getInt(i));
                case BIGINT, TIMESTAMP -> out.writeVarLong(row.getLong(i));
                case FLOAT -> out.writeInt(Float.floatToIntBits(row.getFloat(i)));
                case DOUBLE -> out.writeLong(Double.doubleToLongBits(row.getDouble(i)));
                case STRING -> out.writeString(row.getString(i));
            }
        }
    }

    /** Reads a row whose {@link #TAG} was read. */
    Row read(ByteReader in) {
        RowType type = readHeader(in);
        RowKind kind = RowKind.ofCode(in.readUnsignedByte());
        boolean[] isNull = readNulls(in);
        RowBuilder b = builder;
        for (int i = 0; i < type.size(); i++) {
            if (isNull != null && isNull[i]) {
                b.setNull(i);
                continue;
            }
            switch (type.type(i)) {
                case BOOLEAN -> b.setBoolean(i, in.readByte() != 0);
                case INT, DATE, TIME -> b.setInt(i, (int) in.readVarLong());
                case BIGINT, TIMESTAMP -> b.setLong(i, in.readVarLong());
                case FLOAT -> b.setFloat(i, Float.intBitsToFloat(in.readInt()));
                case DOUBLE -> b.setDouble(i, Double.longBitsToDouble(in.readLong()));
                case STRING -> b.setString(i, in.readString());
            }
        }
        return b.build(kind);
    }

    /** Moves past a row whose {@link #TAG} was read. */
    void skip(ByteReader in) {
        RowType type = readHeader(in);
        in.skip(1);
        boolean[] isNull = readNulls(in);
        for (int i = 0; i < type.size(); i++) {
            if (isNull != null && isNull[i]) {
                continue;
            }
            switch (type.type(i)) {
                case BOOLEAN -> in.skip(1);
                case INT, BIGINT, TIMESTAMP, DATE, TIME -> in.readVarLong();
                case FLOAT -> in.skip(4);
                case DOUBLE -> in.skip(8);
                case STRING -> in.skip(in.readVarInt());
            }
        }
    }

    private RowType readHeader(ByteReader in) {
        int version = in.readUnsignedByte();
        if (version != VERSION) {
            throw new IllegalStateException("a stored row has encoding version " + version + " at byte " + (in.position() - 1)
                    + "; this Millrace reads row version " + VERSION + " (was the state written by a newer Millrace?)");
        }
        byte[] typeBytes = in.readBytes(in.readVarInt());
        if (readType == null || !Arrays.equals(typeBytes, readTypeBytes)) {
            readType = decodeType(typeBytes);
            readTypeBytes = typeBytes;
            readNulls = hasNullable(readType) ? new boolean[readType.size()] : null;
            builder = Row.builder(readType);
        }
        return readType;
    }

    /** Reads the null bits of a row of {@link #readType} into {@link #readNulls}, reused from row to row. */
    private boolean[] readNulls(ByteReader in) {
        boolean[] isNull = readNulls;
        if (isNull == null) {
            return null;
        }
        for (int b = 0; b < isNull.length; b += 8) {
            int bits = in.readUnsignedByte();
            for (int i = b; i < Math.min(isNull.length, b + 8); i++) {
                isNull[i] = (bits & (1 << (i - b))) != 0;
            }
        }
        return isNull;
    }

    private static boolean hasNullable(RowType type) {
        for (int i = 0; i < type.size(); i++) {
            if (type.isNullable(i)) {
                return true;
            }
        }
        return false;
    }

    private byte[] typeBytes(RowType type) {
        if (type != writtenType && !type.equals(writtenType)) {
            ByteWriter w = new ByteWriter(16 * type.size() + 4);
            w.writeVarInt(type.size());
            for (int i = 0; i < type.size(); i++) {
                w.writeString(type.name(i));
                w.writeByte(type.type(i).code());
                w.writeByte(type.isNullable(i) ? 1 : 0);
            }
            writtenTypeBytes = w.toByteArray();
            writtenHasNullable = hasNullable(type);
        }
        writtenType = type;
        return writtenTypeBytes;
    }

    private static RowType decodeType(byte[] bytes) {
        ByteReader in = new ByteReader(bytes, 0, bytes.length);
        int n = in.readVarInt();
        RowType.Builder b = RowType.builder();
        for (int i = 0; i < n; i++) {
            String name = in.readString();
            FieldType type = FieldType.ofCode(in.readUnsignedByte());
            if (in.readUnsignedByte() != 0) {
                b.nullableField(name, type);
            } else {
                b.field(name, type);
            }
        }
        return b.build();
    }
}
