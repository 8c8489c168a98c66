package io.millrace.sql.catalog;

import io.millrace.sql.parser.SqlText;
import io.millrace.sql.types.Types;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A column of a table or view: its name, SQL type and nullability, and for a computed column the expression that
 * computes it from the physical columns.
 */
public record ColumnInfo(String name, SqlTypeName sqlType, int precision, boolean nullable, SqlText expression) {
    /** The column of a Calcite type. */
    public static ColumnInfo of(String name, RelDataType type, SqlText expression) {
        int precision = type.getSqlTypeName().allowsPrec() ? type.getPrecision() : -1;
        return new ColumnInfo(name, type.getSqlTypeName(), precision, type.isNullable(), expression);
    }

    public boolean isComputed() {
        return expression != null;
    }

    /** This column's type in {@code f}. */
    public RelDataType relType(RelDataTypeFactory f) {
        RelDataType t = precision >= 0 && sqlType.allowsPrec() ? f.createSqlType(sqlType, precision) : f.createSqlType(sqlType);
        return f.createTypeWithNullability(t, nullable);
    }

    /** The type as DESCRIBE shows it, in Flink's names. */
    public String typeName(RelDataTypeFactory f) {
        return Types.sqlName(relType(f));
    }
}
