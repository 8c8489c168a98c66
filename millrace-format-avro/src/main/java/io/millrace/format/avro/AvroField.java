package io.millrace.format.avro;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowBuilder;
import io.millrace.api.row.RowType;
import io.millrace.format.FormatException;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.io.Decoder;
import org.apache.avro.io.Encoder;

/** How one field of an Avro record maps to a row field, read and written with Avro's binary encoding. Immutable. */
final class AvroField implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final String avroType;
    private final FieldType type;
    private final Schema.Type valueType;
    /** For a nullable field, the union branches of null and of the value; -1 when not a union. */
    private final int nullBranch;
    private final int valueBranch;
    private final String[] symbols;
    private final Map<String, Integer> symbolIndex;

    private AvroField(String name, String avroType, FieldType type, Schema.Type valueType, int nullBranch, int valueBranch, String[] symbols) {
        this.name = name;
        this.avroType = avroType;
        this.type = type;
        this.valueType = valueType;
        this.nullBranch = nullBranch;
        this.valueBranch = valueBranch;
        this.symbols = symbols;
        if (symbols == null) {
            this.symbolIndex = null;
        } else {
            this.symbolIndex = new HashMap<>();
            for (int i = 0; i < symbols.length; i++) {
                symbolIndex.put(symbols[i], i);
            }
        }
    }

    static AvroField of(Schema.Field f) {
        Schema s = f.schema();
        int nullBranch = -1;
        int valueBranch = -1;
        if (s.getType() == Schema.Type.UNION) {
            List<Schema> branches = s.getTypes();
            if (branches.size() != 2 || branches.get(0).getType() == Schema.Type.NULL == (branches.get(1).getType() == Schema.Type.NULL)) {
                throw new IllegalArgumentException("Avro format: field '" + f.name() + "' is the union " + s
                        + "; only a union of null and one other type has a row type");
            }
            nullBranch = branches.get(0).getType() == Schema.Type.NULL ? 0 : 1;
            valueBranch = 1 - nullBranch;
            s = branches.get(valueBranch);
        }
        FieldType type = switch (s.getType()) {
            case BOOLEAN -> FieldType.BOOLEAN;
            case INT -> FieldType.INT;
            case LONG -> s.getLogicalType() instanceof LogicalTypes.TimestampMillis ? FieldType.TIMESTAMP : FieldType.BIGINT;
            case FLOAT -> FieldType.FLOAT;
            case DOUBLE -> FieldType.DOUBLE;
            case STRING, ENUM -> FieldType.STRING;
            default -> throw new IllegalArgumentException("Avro format: field '" + f.name() + "' is of Avro type " + s
                    + ", which has no row type (boolean, int, long, float, double, string, enum, timestamp-millis and unions with null have)");
        };
        String[] symbols = s.getType() == Schema.Type.ENUM ? s.getEnumSymbols().toArray(new String[0]) : null;
        String avroType = (nullBranch >= 0 ? "nullable " : "") + (s.getLogicalType() != null ? s.getLogicalType().getName() : s.getType().getName());
        return new AvroField(f.name(), avroType, type, s.getType(), nullBranch, valueBranch, symbols);
    }

    boolean nullable() {
        return nullBranch >= 0;
    }

    FieldType type() {
        return type;
    }

    String where(int offset) {
        return "field '" + name + "' (" + avroType + ") at byte " + offset;
    }

    void read(Decoder in, RowBuilder row, int i, int offset) throws IOException {
        if (nullBranch >= 0) {
            long branch = in.readIndex();
            if (branch == nullBranch) {
                in.readNull();
                row.setNull(i);
                return;
            }
            if (branch != valueBranch) {
                throw new FormatException(where(offset) + ": union branch " + branch + " does not exist (the union has 2)");
            }
        }
        switch (valueType) {
            case BOOLEAN -> row.setBoolean(i, in.readBoolean());
            case INT -> row.setInt(i, in.readInt());
            case LONG -> {
                if (type == FieldType.TIMESTAMP) {
                    row.setTimestamp(i, in.readLong());
                } else {
                    row.setLong(i, in.readLong());
                }
            }
            case FLOAT -> row.setFloat(i, in.readFloat());
            case DOUBLE -> row.setDouble(i, in.readDouble());
            case STRING -> row.setString(i, in.readString());
            case ENUM -> {
                int symbol = in.readEnum();
                if (symbol < 0 || symbol >= symbols.length) {
                    throw new FormatException(where(offset) + ": enum symbol " + symbol + " does not exist (there are " + symbols.length + ")");
                }
                row.setString(i, symbols[symbol]);
            }
            default -> throw new IllegalStateException(valueType.getName());
        }
    }

    void write(Row row, int i, Encoder out) throws IOException {
        if (nullBranch >= 0) {
            if (row.isNullAt(i)) {
                out.writeIndex(nullBranch);
                out.writeNull();
                return;
            }
            out.writeIndex(valueBranch);
        }
        switch (valueType) {
            case BOOLEAN -> out.writeBoolean(row.getBoolean(i));
            case INT -> out.writeInt(row.getInt(i));
            case LONG -> out.writeLong(type == FieldType.TIMESTAMP ? row.getTimestamp(i) : row.getLong(i));
            case FLOAT -> out.writeFloat(row.getFloat(i));
            case DOUBLE -> out.writeDouble(row.getDouble(i));
            case STRING -> out.writeString(row.getString(i));
            case ENUM -> {
                Integer symbol = symbolIndex.get(row.getString(i));
                if (symbol == null) {
                    throw new FormatException("field '" + name + "' (enum): '" + row.getString(i) + "' is not one of the symbols "
                            + List.of(symbols));
                }
                out.writeEnum(symbol);
            }
            default -> throw new IllegalStateException(valueType.getName());
        }
    }

    /** The record schema of a row type: see {@link AvroRowFormat#of}. */
    static Schema schemaOf(RowType type, String fullName) {
        if (fullName == null || fullName.isBlank()) {
            throw new IllegalArgumentException("Avro format: the record needs a name");
        }
        int dot = fullName.lastIndexOf('.');
        var fields = org.apache.avro.SchemaBuilder.record(dot < 0 ? fullName : fullName.substring(dot + 1))
                .namespace(dot < 0 ? null : fullName.substring(0, dot)).fields();
        for (int i = 0; i < type.size(); i++) {
            Schema value = switch (type.type(i)) {
                case BOOLEAN -> Schema.create(Schema.Type.BOOLEAN);
                case INT -> Schema.create(Schema.Type.INT);
                case BIGINT -> Schema.create(Schema.Type.LONG);
                case TIMESTAMP -> LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG));
                case FLOAT -> Schema.create(Schema.Type.FLOAT);
                case DOUBLE -> Schema.create(Schema.Type.DOUBLE);
                case STRING -> Schema.create(Schema.Type.STRING);
                case DATE, TIME, ROW, DECIMAL -> throw new IllegalArgumentException("Avro format: field '" + type.name(i) + "' is " + type.typeName(i)
                        + ", which has no Avro form yet (supported: BOOLEAN, INT, BIGINT, TIMESTAMP, FLOAT, DOUBLE, STRING)");
            };
            if (type.isNullable(i)) {
                fields = fields.name(type.name(i)).type(Schema.createUnion(Schema.create(Schema.Type.NULL), value)).withDefault(null);
            } else {
                fields = fields.name(type.name(i)).type(value).noDefault();
            }
        }
        return fields.endRecord();
    }
}
