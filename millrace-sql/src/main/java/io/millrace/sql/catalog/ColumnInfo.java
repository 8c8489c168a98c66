package io.millrace.sql.catalog;

import io.millrace.sql.parser.SqlText;
import io.millrace.sql.types.Types;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A column of a table or view: its name, SQL type (with the scale of a DECIMAL and the fields of a ROW, each a
 * column itself) and nullability, and for a computed column the expression that computes it from the physical
 * columns.
 */
public record ColumnInfo(String name, SqlTypeName sqlType, int precision, int scale, List<ColumnInfo> fields, boolean nullable,
        SqlText expression) {
    public ColumnInfo {
        fields = fields == null ? List.of() : List.copyOf(fields);
    }

    /** A column of a type without scale or fields. */
    public ColumnInfo(String name, SqlTypeName sqlType, int precision, boolean nullable, SqlText expression) {
        this(name, sqlType, precision, 0, List.of(), nullable, expression);
    }

    /** The column of a Calcite type. */
    public static ColumnInfo of(String name, RelDataType type, SqlText expression) {
        int precision = type.getSqlTypeName().allowsPrec() ? type.getPrecision() : -1;
        int scale = type.getSqlTypeName() == SqlTypeName.DECIMAL ? type.getScale() : 0;
        List<ColumnInfo> fields = new ArrayList<>();
        if (type.isStruct()) {
            for (RelDataTypeField f : type.getFieldList()) {
                fields.add(of(f.getName(), f.getType(), null));
            }
        }
        return new ColumnInfo(name, type.getSqlTypeName(), precision, scale, fields, type.isNullable(), expression);
    }

    public boolean isComputed() {
        return expression != null;
    }

    /** This column's type in {@code f}. */
    public RelDataType relType(RelDataTypeFactory f) {
        RelDataType t;
        if (sqlType == SqlTypeName.ROW) {
            List<RelDataType> types = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (ColumnInfo c : fields) {
                names.add(c.name());
                types.add(c.relType(f));
            }
            t = Types.struct(f, types, names);
        } else if (sqlType == SqlTypeName.DECIMAL) {
            t = f.createSqlType(sqlType, precision, scale);
        } else {
            t = precision >= 0 && sqlType.allowsPrec() ? f.createSqlType(sqlType, precision) : f.createSqlType(sqlType);
        }
        return f.createTypeWithNullability(t, nullable);
    }

    /** The type as DESCRIBE shows it, in Flink's names. */
    public String typeName(RelDataTypeFactory f) {
        return Types.sqlName(relType(f));
    }
}
