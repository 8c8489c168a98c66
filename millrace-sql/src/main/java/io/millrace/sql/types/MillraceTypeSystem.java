package io.millrace.sql.types;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Calcite's type system with Flink's limits and decimal rules: strings up to {@code Integer.MAX_VALUE} characters,
 * timestamps to precision 9, decimals to precision 38 ({@code DECIMAL} alone is {@code DECIMAL(10, 0)}), and the
 * result types of decimal arithmetic and aggregates as Flink derives them:
 *
 * <pre>
 * a + b, a - b   DECIMAL(max(p1 - s1, p2 - s2) + max(s1, s2) + 1, max(s1, s2))
 * a * b          DECIMAL(p1 + p2, s1 + s2)
 * a / b          DECIMAL(p1 - s1 + s2 + max(6, s1 + p2 + 1), max(6, s1 + p2 + 1))
 * a % b          DECIMAL(min(p1 - s1, p2 - s2) + max(s1, s2), max(s1, s2))
 * SUM(a)         DECIMAL(38, s)
 * AVG(a)         DECIMAL(38, max(6, s))
 * </pre>
 *
 * where an integer operand counts as a DECIMAL of its digits ({@code INT} is {@code DECIMAL(10, 0)}, {@code BIGINT}
 * {@code DECIMAL(19, 0)}), and a precision above 38 is cut to 38 keeping the digits before the point and at least
 * {@code min(s, 6)} after it.
 */
public final class MillraceTypeSystem extends RelDataTypeSystemImpl {
    public static final MillraceTypeSystem INSTANCE = new MillraceTypeSystem();

    /** The largest DECIMAL precision. */
    public static final int MAX_DECIMAL_PRECISION = 38;

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        return switch (typeName) {
            case VARCHAR, CHAR -> Integer.MAX_VALUE;
            case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> 9;
            case DECIMAL -> MAX_DECIMAL_PRECISION;
            default -> super.getMaxPrecision(typeName);
        };
    }

    @Override
    public int getMaxScale(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? MAX_DECIMAL_PRECISION : super.getMaxScale(typeName);
    }

    @Override
    public int getDefaultPrecision(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? 10 : super.getDefaultPrecision(typeName);
    }

    @Override
    public boolean shouldConvertRaggedUnionTypesToVarying() {
        return true;
    }

    @Override
    public RelDataType deriveDecimalPlusType(RelDataTypeFactory f, RelDataType a, RelDataType b) {
        if (!decimalOperands(a, b)) {
            return null;
        }
        RelDataType x = decimalOf(f, a);
        RelDataType y = decimalOf(f, b);
        int scale = Math.max(x.getScale(), y.getScale());
        int precision = Math.max(x.getPrecision() - x.getScale(), y.getPrecision() - y.getScale()) + scale + 1;
        return decimal(f, precision, scale);
    }

    @Override
    public RelDataType deriveDecimalMultiplyType(RelDataTypeFactory f, RelDataType a, RelDataType b) {
        if (!decimalOperands(a, b)) {
            return null;
        }
        RelDataType x = decimalOf(f, a);
        RelDataType y = decimalOf(f, b);
        return decimal(f, x.getPrecision() + y.getPrecision(), x.getScale() + y.getScale());
    }

    @Override
    public RelDataType deriveDecimalDivideType(RelDataTypeFactory f, RelDataType a, RelDataType b) {
        if (!decimalOperands(a, b)) {
            return null;
        }
        RelDataType x = decimalOf(f, a);
        RelDataType y = decimalOf(f, b);
        int scale = Math.max(6, x.getScale() + y.getPrecision() + 1);
        int precision = x.getPrecision() - x.getScale() + y.getScale() + scale;
        return decimal(f, precision, scale);
    }

    @Override
    public RelDataType deriveDecimalModType(RelDataTypeFactory f, RelDataType a, RelDataType b) {
        if (!decimalOperands(a, b)) {
            return null;
        }
        RelDataType x = decimalOf(f, a);
        RelDataType y = decimalOf(f, b);
        int scale = Math.max(x.getScale(), y.getScale());
        int precision = Math.min(x.getPrecision() - x.getScale(), y.getPrecision() - y.getScale()) + scale;
        return decimal(f, precision, scale);
    }

    @Override
    public RelDataType deriveSumType(RelDataTypeFactory f, RelDataType argument) {
        if (argument.getSqlTypeName() == SqlTypeName.DECIMAL) {
            return f.createTypeWithNullability(f.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL_PRECISION, argument.getScale()),
                    argument.isNullable());
        }
        return super.deriveSumType(f, argument);
    }

    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory f, RelDataType argument) {
        if (argument.getSqlTypeName() == SqlTypeName.DECIMAL) {
            return f.createTypeWithNullability(
                    f.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL_PRECISION, Math.max(6, argument.getScale())), argument.isNullable());
        }
        return super.deriveAvgAggType(f, argument);
    }

    /** An exact number's type as a DECIMAL of its digits, as Flink counts them (Calcite's BIGINT is DECIMAL(38, 0)). */
    private static RelDataType decimalOf(RelDataTypeFactory f, RelDataType t) {
        return switch (t.getSqlTypeName()) {
            case TINYINT -> f.createSqlType(SqlTypeName.DECIMAL, 3, 0);
            case SMALLINT -> f.createSqlType(SqlTypeName.DECIMAL, 5, 0);
            case INTEGER -> f.createSqlType(SqlTypeName.DECIMAL, 10, 0);
            case BIGINT -> f.createSqlType(SqlTypeName.DECIMAL, 19, 0);
            default -> t;
        };
    }

    private static boolean decimalOperands(RelDataType a, RelDataType b) {
        return SqlTypeUtil.isExactNumeric(a) && SqlTypeUtil.isExactNumeric(b) && (SqlTypeUtil.isDecimal(a) || SqlTypeUtil.isDecimal(b));
    }

    /** DECIMAL(precision, scale), cut to precision 38 as Flink does. */
    private static RelDataType decimal(RelDataTypeFactory f, int precision, int scale) {
        if (precision > MAX_DECIMAL_PRECISION) {
            int digits = precision - scale;
            scale = Math.max(MAX_DECIMAL_PRECISION - digits, Math.min(scale, 6));
            precision = MAX_DECIMAL_PRECISION;
        }
        return f.createSqlType(SqlTypeName.DECIMAL, precision, scale);
    }
}
