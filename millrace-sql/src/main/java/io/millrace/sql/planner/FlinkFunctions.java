package io.millrace.sql.planner;

import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.util.SqlOperatorTables;

/**
 * Flink SQL functions that Calcite's standard operator table does not have, declared for validation; {@link
 * ScalarFunctions} compiles them; each returns null when an argument is null.
 *
 * <ul>
 *   <li>{@code SPLIT_INDEX(s, delimiter, n)}: the {@code n}-th (from 0) piece of {@code s} split at every
 *   {@code delimiter}, empty pieces kept; null when there is no such piece or an argument is null;</li>
 *   <li>{@code REGEXP_EXTRACT(s, regex [, group])}: group {@code group} (default 0, the whole match) of the first
 *   match of the Java regular expression {@code regex} in {@code s}; null when nothing matches, the group does not
 *   exist or an argument is null;</li>
 *   <li>{@code TO_TIMESTAMP(s [, format])}: the {@code TIMESTAMP(3)} that {@code s} gives read with the
 *   {@link java.time.format.DateTimeFormatter} pattern {@code format} (default {@code yyyy-MM-dd HH:mm:ss}; fields
 *   the pattern lacks are 0, the month and day 1), in UTC; null when {@code s} does not match;</li>
 *   <li>{@code DATE_FORMAT(ts, format)}: the timestamp (or a string read as {@code TO_TIMESTAMP} reads it) written
 *   with the pattern {@code format}, in UTC, as a {@code STRING};</li>
 *   <li>{@code CURRENT_WATERMARK(ts)}: the watermark of the operator evaluating it, null before the first one
 *   (see {@link io.millrace.sql.runtime.CurrentWatermark}).</li>
 * </ul>
 */
final class FlinkFunctions {
    private FlinkFunctions() {}

    static final SqlFunction SPLIT_INDEX = new SqlFunction("SPLIT_INDEX", SqlKind.OTHER_FUNCTION,
            ReturnTypes.cascade(ReturnTypes.explicit(SqlTypeName.VARCHAR), SqlTypeTransforms.FORCE_NULLABLE), null,
            OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER), SqlFunctionCategory.STRING);

    static final SqlFunction REGEXP_EXTRACT = new SqlFunction("REGEXP_EXTRACT", SqlKind.OTHER_FUNCTION,
            ReturnTypes.cascade(ReturnTypes.explicit(SqlTypeName.VARCHAR), SqlTypeTransforms.FORCE_NULLABLE), null,
            OperandTypes.or(OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER),
                    OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER)),
            SqlFunctionCategory.STRING);

    static final SqlFunction TO_TIMESTAMP = new SqlFunction("TO_TIMESTAMP", SqlKind.OTHER_FUNCTION,
            ReturnTypes.cascade(ReturnTypes.explicit(SqlTypeName.TIMESTAMP, 3), SqlTypeTransforms.FORCE_NULLABLE), null,
            OperandTypes.or(OperandTypes.family(SqlTypeFamily.CHARACTER), OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER)),
            SqlFunctionCategory.TIMEDATE);

    static final SqlFunction DATE_FORMAT = new SqlFunction("DATE_FORMAT", SqlKind.OTHER_FUNCTION,
            ReturnTypes.cascade(ReturnTypes.explicit(SqlTypeName.VARCHAR), SqlTypeTransforms.FORCE_NULLABLE), null,
            OperandTypes.or(OperandTypes.family(SqlTypeFamily.TIMESTAMP, SqlTypeFamily.CHARACTER),
                    OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER)),
            SqlFunctionCategory.TIMEDATE);

    static final SqlFunction CURRENT_WATERMARK = new SqlFunction("CURRENT_WATERMARK", SqlKind.OTHER_FUNCTION,
            ReturnTypes.cascade(ReturnTypes.ARG0, SqlTypeTransforms.FORCE_NULLABLE), null, OperandTypes.family(SqlTypeFamily.TIMESTAMP),
            SqlFunctionCategory.TIMEDATE) {
        @Override
        public boolean isDeterministic() {
            return false;
        }
    };

    /** The table of these functions. */
    static SqlOperatorTable table() {
        return SqlOperatorTables.of(SPLIT_INDEX, REGEXP_EXTRACT, TO_TIMESTAMP, DATE_FORMAT, CURRENT_WATERMARK);
    }
}
