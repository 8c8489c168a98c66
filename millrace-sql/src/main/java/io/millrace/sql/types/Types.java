package io.millrace.sql.types;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.RowType;
import io.millrace.sql.parser.TypeSpec;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rel.type.StructKind;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The mapping between SQL types (DDL's {@link TypeSpec}, Calcite's {@link RelDataType}) and the {@link FieldType}s of
 * rows. Both timestamp kinds are milliseconds since the epoch in a row, a DATE is days since 1970-01-01, a TIME
 * milliseconds since midnight, a DECIMAL(p, s) a {@link java.math.BigDecimal} of scale s, and a ROW a nested
 * {@link io.millrace.api.row.Row}. ROW types are Calcite structs whose fields are reached as {@code column.field}
 * (Flink's {@code PEEK_FIELDS_NO_EXPAND} kind: {@code SELECT *} does not expand them).
 */
public final class Types {
    private Types() {}

    /** The Calcite type of a DDL column type. */
    public static RelDataType relType(TypeSpec spec, RelDataTypeFactory f) {
        RelDataType t = switch (spec.base()) {
            case BOOLEAN -> f.createSqlType(SqlTypeName.BOOLEAN);
            case INT -> f.createSqlType(SqlTypeName.INTEGER);
            case BIGINT -> f.createSqlType(SqlTypeName.BIGINT);
            case FLOAT -> f.createSqlType(SqlTypeName.FLOAT);
            case DOUBLE -> f.createSqlType(SqlTypeName.DOUBLE);
            case STRING -> f.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE);
            case TIMESTAMP -> f.createSqlType(SqlTypeName.TIMESTAMP, spec.precision());
            case TIMESTAMP_LTZ -> f.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, spec.precision());
            case DATE -> f.createSqlType(SqlTypeName.DATE);
            case TIME -> f.createSqlType(SqlTypeName.TIME, spec.precision());
            case DECIMAL -> f.createSqlType(SqlTypeName.DECIMAL, spec.precision(), spec.scale());
            case ROW -> {
                List<RelDataType> types = new ArrayList<>();
                List<String> names = new ArrayList<>();
                for (TypeSpec.Field field : spec.fields()) {
                    names.add(field.name());
                    types.add(relType(field.type(), f));
                }
                yield struct(f, types, names);
            }
        };
        return f.createTypeWithNullability(t, spec.nullable());
    }

    /** A ROW type of these fields, reached as {@code column.field}. */
    public static RelDataType struct(RelDataTypeFactory f, List<RelDataType> types, List<String> names) {
        return f.createStructType(StructKind.PEEK_FIELDS_NO_EXPAND, types, names);
    }

    private static final RelDataTypeFactory FACTORY = new org.apache.calcite.jdbc.JavaTypeFactoryImpl(MillraceTypeSystem.INSTANCE);

    /** A type factory with Millrace's type system (strings up to Integer.MAX_VALUE characters). */
    public static RelDataTypeFactory typeFactory() {
        return FACTORY;
    }

    /** The SQL type of a row field without nested type or scale: TIMESTAMP fields are TIMESTAMP_LTZ(3), STRING fields STRING. */
    public static RelDataType relTypeOf(FieldType type, boolean nullable) {
        TypeSpec.Base base = switch (type) {
            case BOOLEAN -> TypeSpec.Base.BOOLEAN;
            case INT -> TypeSpec.Base.INT;
            case BIGINT -> TypeSpec.Base.BIGINT;
            case FLOAT -> TypeSpec.Base.FLOAT;
            case DOUBLE -> TypeSpec.Base.DOUBLE;
            case STRING -> TypeSpec.Base.STRING;
            case TIMESTAMP -> TypeSpec.Base.TIMESTAMP_LTZ;
            case DATE -> TypeSpec.Base.DATE;
            case TIME -> TypeSpec.Base.TIME;
            case ROW, DECIMAL -> throw new IllegalArgumentException(type + " needs its row type or precision: use relTypeOf(RowType, int)");
        };
        return relType(new TypeSpec(base, 3, nullable), FACTORY);
    }

    /** The SQL type of field {@code i} of {@code type}, nested rows and decimals included. */
    public static RelDataType relTypeOf(RowType type, int i) {
        RelDataTypeFactory f = FACTORY;
        RelDataType t = switch (type.type(i)) {
            case ROW -> {
                RowType nested = type.rowType(i);
                List<RelDataType> types = new ArrayList<>();
                for (int k = 0; k < nested.size(); k++) {
                    types.add(relTypeOf(nested, k));
                }
                yield struct(f, types, nested.names());
            }
            case DECIMAL -> f.createSqlType(SqlTypeName.DECIMAL, type.precision(i), type.scale(i));
            default -> relTypeOf(type.type(i), false);
        };
        return f.createTypeWithNullability(t, type.isNullable(i));
    }

    /** The field type that holds values of {@code type}, or null if rows cannot hold it yet. */
    public static FieldType fieldTypeOrNull(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case BOOLEAN -> FieldType.BOOLEAN;
            case TINYINT, SMALLINT, INTEGER -> FieldType.INT;
            case BIGINT -> FieldType.BIGINT;
            case FLOAT, REAL -> FieldType.FLOAT;
            case DOUBLE -> FieldType.DOUBLE;
            case DECIMAL -> FieldType.DECIMAL;
            case CHAR, VARCHAR -> FieldType.STRING;
            case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> FieldType.TIMESTAMP;
            case DATE -> FieldType.DATE;
            case TIME -> FieldType.TIME;
            case ROW -> type.isStruct() ? FieldType.ROW : null;
            default -> null;
        };
    }

    /** The row type of a Calcite record type; fails naming the first column whose type rows cannot hold yet. */
    public static RowType rowType(RelDataType record) {
        RowType.Builder b = RowType.builder();
        for (RelDataTypeField f : record.getFieldList()) {
            addField(b, f.getName(), f.getType());
        }
        return b.build();
    }

    /** Adds a field of Calcite type {@code type} to {@code b}, with its nullability; fails naming it if rows cannot hold it yet. */
    public static void addField(RowType.Builder b, String name, RelDataType type) {
        addField(b, name, type, type.isNullable());
    }

    /** As {@link #addField(RowType.Builder, String, RelDataType)}, with the field's own nullability given (nested fields keep theirs). */
    public static void addField(RowType.Builder b, String name, RelDataType type, boolean nullable) {
        FieldType t = fieldTypeOrNull(type);
        if (t == null) {
            throw new UnsupportedSql("column '" + name + "' has type " + type.getFullTypeString()
                    + ", which is not supported yet in results (supported: BOOLEAN, INT, BIGINT, FLOAT, DOUBLE, DECIMAL, STRING, DATE, TIME, "
                    + "TIMESTAMP, TIMESTAMP_LTZ, ROW)");
        }
        if (t == FieldType.ROW) {
            RowType nested = rowType(type);
            if (nullable) {
                b.nullableField(name, nested);
            } else {
                b.field(name, nested);
            }
        } else if (t == FieldType.DECIMAL) {
            b.decimalField(name, type.getPrecision(), type.getScale(), nullable);
        } else if (nullable) {
            b.nullableField(name, t);
        } else {
            b.field(name, t);
        }
    }

    /** How a Calcite type reads in messages and DESCRIBE: Flink's names where they differ. */
    public static String sqlName(RelDataType t) {
        String base = switch (t.getSqlTypeName()) {
            case VARCHAR -> t.getPrecision() == Integer.MAX_VALUE ? "STRING" : "VARCHAR(" + t.getPrecision() + ")";
            case INTEGER -> "INT";
            case TIMESTAMP -> "TIMESTAMP(" + t.getPrecision() + ")";
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> "TIMESTAMP_LTZ(" + t.getPrecision() + ")";
            case TIME -> "TIME(" + t.getPrecision() + ")";
            case DECIMAL -> "DECIMAL(" + t.getPrecision() + ", " + t.getScale() + ")";
            case ROW -> {
                StringBuilder b = new StringBuilder("ROW<");
                for (RelDataTypeField f : t.getFieldList()) {
                    b.append(f.getIndex() == 0 ? "" : ", ").append('`').append(f.getName()).append("` ").append(sqlName(f.getType()));
                }
                yield b.append('>').toString();
            }
            default -> t.getSqlTypeName().getName();
        };
        return base + (t.isNullable() ? "" : " NOT NULL");
    }
}
