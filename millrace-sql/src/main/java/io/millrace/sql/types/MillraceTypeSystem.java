package io.millrace.sql.types;

import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/** Calcite's type system with Flink's limits: strings up to {@code Integer.MAX_VALUE} characters, timestamps to precision 9. */
public final class MillraceTypeSystem extends RelDataTypeSystemImpl {
    public static final MillraceTypeSystem INSTANCE = new MillraceTypeSystem();

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        return switch (typeName) {
            case VARCHAR, CHAR -> Integer.MAX_VALUE;
            case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> 9;
            default -> super.getMaxPrecision(typeName);
        };
    }

    @Override
    public boolean shouldConvertRaggedUnionTypesToVarying() {
        return true;
    }
}
