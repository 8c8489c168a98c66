package io.millrace.sql.types;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.RowType;
import io.millrace.sql.parser.TypeSpec;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The mapping between SQL types (DDL's {@link TypeSpec}, Calcite's {@link RelDataType}) and the {@link FieldType}s of
 * rows. Both timestamp kinds are milliseconds since the epoch in a row, a DATE is days since 1970-01-01 and a TIME
 * milliseconds since midnight; {@code DECIMAL} values (numeric literals
 * like {@code 1.5}) are computed and stored as {@code DOUBLE}.
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
        };
        return f.createTypeWithNullability(t, spec.nullable());
    }

    private static final RelDataTypeFactory FACTORY = new org.apache.calcite.jdbc.JavaTypeFactoryImpl(MillraceTypeSystem.INSTANCE);

    /** A type factory with Millrace's type system (strings up to Integer.MAX_VALUE characters). */
    public static RelDataTypeFactory typeFactory() {
        return FACTORY;
    }

    /** The SQL type of a row field: TIMESTAMP fields are TIMESTAMP_LTZ(3), STRING fields STRING. */
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
        };
        return relType(new TypeSpec(base, 3, nullable), FACTORY);
    }

    /** The field type that holds values of {@code type}, or null if rows cannot hold it yet. */
    public static FieldType fieldTypeOrNull(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case BOOLEAN -> FieldType.BOOLEAN;
            case TINYINT, SMALLINT, INTEGER -> FieldType.INT;
            case BIGINT -> FieldType.BIGINT;
            case FLOAT, REAL -> FieldType.FLOAT;
            case DOUBLE, DECIMAL -> FieldType.DOUBLE;
            case CHAR, VARCHAR -> FieldType.STRING;
            case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> FieldType.TIMESTAMP;
            case DATE -> FieldType.DATE;
            case TIME -> FieldType.TIME;
            default -> null;
        };
    }

    /** The row type of a Calcite record type; fails naming the first column whose type rows cannot hold yet. */
    public static RowType rowType(RelDataType record) {
        RowType.Builder b = RowType.builder();
        for (RelDataTypeField f : record.getFieldList()) {
            FieldType t = fieldTypeOrNull(f.getType());
            if (t == null) {
                throw new UnsupportedSql("column '" + f.getName() + "' has type " + f.getType().getFullTypeString()
                        + ", which is not supported yet in results (supported: BOOLEAN, INT, BIGINT, FLOAT, DOUBLE, STRING, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ)");
            }
            if (f.getType().isNullable()) {
                b.nullableField(f.getName(), t);
            } else {
                b.field(f.getName(), t);
            }
        }
        return b.build();
    }

    /** How a Calcite type reads in messages and DESCRIBE: Flink's names where they differ. */
    public static String sqlName(RelDataType t) {
        String base = switch (t.getSqlTypeName()) {
            case VARCHAR -> t.getPrecision() == Integer.MAX_VALUE ? "STRING" : "VARCHAR(" + t.getPrecision() + ")";
            case INTEGER -> "INT";
            case TIMESTAMP -> "TIMESTAMP(" + t.getPrecision() + ")";
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> "TIMESTAMP_LTZ(" + t.getPrecision() + ")";
            case TIME -> "TIME(" + t.getPrecision() + ")";
            default -> t.getSqlTypeName().getName();
        };
        return base + (t.isNullable() ? "" : " NOT NULL");
    }
}
