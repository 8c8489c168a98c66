package io.millrace.runtime.state.serde;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowBuilder;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * The state encoding of a {@link Row}, with its {@link RowType}, so a stored row reads back without the job
 * telling its type. After the {@link #TAG}:
 *
 * <pre>
 * version      byte: 1
 * type         varint length, then the type's fields (below)
 * kind         byte {@link RowKind#code()}; always 0 (+I) for keys, whose equality ignores the kind
 * values       the row's values (below)
 *
 * fields       varint field count; per field: string name, byte {@link FieldType#code()}, byte 1 if nullable else 0,
 *              then for a ROW the nested type's fields, for a DECIMAL a byte precision and a byte scale
 * values       null bits, only if the type has a nullable field: (count + 7) / 8 bytes, bit i of byte i / 8 set when
 *              field i is null; then each non-null field in order: BOOLEAN byte 0/1; INT, BIGINT, TIMESTAMP, DATE,
 *              TIME zig-zag varlong; FLOAT 4 bytes of {@link Float#floatToIntBits}; DOUBLE 8 bytes of
 *              {@link Double#doubleToLongBits}; STRING a string; ROW the nested row's values (no type, no kind: a
 *              nested row reads back as +I); DECIMAL its unscaled value at the field's scale, a zig-zag varlong when
 *              the precision is at most 18, else a varint length and the two's-complement big-endian bytes
 * </pre>
 *
 * Equal rows give equal bytes in key mode. A reader fails, naming the version, on a version it does not know; new
 * versions will be added beside this one, never change it (ROW and DECIMAL fields were added to version 1 without
 * changing the bytes of the types before them). One instance per {@link StateSerializer}: it caches the last row
 * type written and read, so a state of rows of one type encodes and decodes the type once. Not thread-safe.
 */
final class RowEncoding {
    static final int TAG = 37;
    static final int VERSION = 1;

    private RowType writtenType;
    private byte[] writtenTypeBytes;
    private Layout writtenLayout;
    private RowType readType;
    private byte[] readTypeBytes;
    private Layout readLayout;

    void write(Row row, boolean canonical, ByteWriter out) {
        RowType type = row.type();
        out.writeByte(TAG);
        out.writeByte(VERSION);
        byte[] typeBytes = typeBytes(type);
        out.writeVarInt(typeBytes.length);
        out.write(typeBytes);
        out.writeByte(canonical ? RowKind.INSERT.code() : row.kind().code());
        writeValues(row, writtenLayout, out);
    }

    private static void writeValues(Row row, Layout layout, ByteWriter out) {
        RowType type = layout.type;
        int n = type.size();
        if (layout.hasNullable) {
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
                case ROW -> writeValues(row.getRow(i), layout.children[i], out);
                case DECIMAL -> {
                    BigInteger unscaled = row.getDecimal(i).unscaledValue();
                    if (type.precision(i) <= 18) {
                        out.writeVarLong(unscaled.longValueExact());
                    } else {
                        byte[] bytes = unscaled.toByteArray();
                        out.writeVarInt(bytes.length);
                        out.write(bytes);
                    }
                }
            }
        }
    }

    /** Reads a row whose {@link #TAG} was read. */
    Row read(ByteReader in) {
        Layout layout = readHeader(in);
        RowKind kind = RowKind.ofCode(in.readUnsignedByte());
        return readValues(in, layout, kind);
    }

    private static Row readValues(ByteReader in, Layout layout, RowKind kind) {
        RowType type = layout.type;
        boolean[] isNull = readNulls(in, layout);
        RowBuilder b = layout.builder;
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
                case ROW -> b.setRow(i, readValues(in, layout.children[i], RowKind.INSERT));
                case DECIMAL -> {
                    BigInteger unscaled = type.precision(i) <= 18 ? BigInteger.valueOf(in.readVarLong()) : new BigInteger(in.readBytes(in.readVarInt()));
                    b.setDecimal(i, new BigDecimal(unscaled, type.scale(i)));
                }
            }
        }
        return b.build(kind);
    }

    /** Moves past a row whose {@link #TAG} was read. */
    void skip(ByteReader in) {
        Layout layout = readHeader(in);
        in.skip(1);
        skipValues(in, layout);
    }

    private static void skipValues(ByteReader in, Layout layout) {
        RowType type = layout.type;
        boolean[] isNull = readNulls(in, layout);
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
                case ROW -> skipValues(in, layout.children[i]);
                case DECIMAL -> {
                    if (type.precision(i) <= 18) {
                        in.readVarLong();
                    } else {
                        in.skip(in.readVarInt());
                    }
                }
            }
        }
    }

    private Layout readHeader(ByteReader in) {
        int version = in.readUnsignedByte();
        if (version != VERSION) {
            throw new IllegalStateException("a stored row has encoding version " + version + " at byte " + (in.position() - 1)
                    + "; this Millrace reads row version " + VERSION + " (was the state written by a newer Millrace?)");
        }
        byte[] typeBytes = in.readBytes(in.readVarInt());
        if (readType == null || !Arrays.equals(typeBytes, readTypeBytes)) {
            readType = decodeType(new ByteReader(typeBytes, 0, typeBytes.length));
            readTypeBytes = typeBytes;
            readLayout = new Layout(readType);
        }
        return readLayout;
    }

    /**
     * Reads the null bits of a row of {@code layout}'s type into its reused array; null if the type has no nullable
     * field. The array is read before any nested row's, and used up before the next row of the same type is read.
     */
    private static boolean[] readNulls(ByteReader in, Layout layout) {
        boolean[] isNull = layout.nulls;
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

    private byte[] typeBytes(RowType type) {
        if (type != writtenType && !type.equals(writtenType)) {
            ByteWriter w = new ByteWriter(16 * type.size() + 4);
            writeType(type, w);
            writtenTypeBytes = w.toByteArray();
            writtenLayout = new Layout(type);
        }
        writtenType = type;
        return writtenTypeBytes;
    }

    private static void writeType(RowType type, ByteWriter w) {
        w.writeVarInt(type.size());
        for (int i = 0; i < type.size(); i++) {
            w.writeString(type.name(i));
            w.writeByte(type.type(i).code());
            w.writeByte(type.isNullable(i) ? 1 : 0);
            if (type.type(i) == FieldType.ROW) {
                writeType(type.rowType(i), w);
            } else if (type.type(i) == FieldType.DECIMAL) {
                w.writeByte(type.precision(i));
                w.writeByte(type.scale(i));
            }
        }
    }

    private static RowType decodeType(ByteReader in) {
        int n = in.readVarInt();
        RowType.Builder b = RowType.builder();
        for (int i = 0; i < n; i++) {
            String name = in.readString();
            FieldType type = FieldType.ofCode(in.readUnsignedByte());
            boolean nullable = in.readUnsignedByte() != 0;
            if (type == FieldType.ROW) {
                RowType nested = decodeType(in);
                if (nullable) {
                    b.nullableField(name, nested);
                } else {
                    b.field(name, nested);
                }
            } else if (type == FieldType.DECIMAL) {
                int precision = in.readUnsignedByte();
                b.decimalField(name, precision, in.readUnsignedByte(), nullable);
            } else if (nullable) {
                b.nullableField(name, type);
            } else {
                b.field(name, type);
            }
        }
        return b.build();
    }

    /** What reading and writing rows of one type reuse: its builder, its null bits, and the same for its nested rows. */
    private static final class Layout {
        final RowType type;
        final boolean hasNullable;
        final boolean[] nulls;
        final RowBuilder builder;
        /** Per field, the layout of a ROW field's nested rows, else null. */
        final Layout[] children;

        Layout(RowType type) {
            this.type = type;
            boolean any = false;
            this.children = new Layout[type.size()];
            for (int i = 0; i < type.size(); i++) {
                any |= type.isNullable(i);
                if (type.type(i) == FieldType.ROW) {
                    children[i] = new Layout(type.rowType(i));
                }
            }
            this.hasNullable = any;
            this.nulls = any ? new boolean[type.size()] : null;
            this.builder = Row.builder(type);
        }
    }
}
