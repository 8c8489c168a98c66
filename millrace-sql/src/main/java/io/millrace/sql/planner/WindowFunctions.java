package io.millrace.sql.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlHopTableFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSessionTableFunction;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlTumbleTableFunction;
import org.apache.calcite.sql.SqlWindowTableFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlNameMatcher;

/**
 * Flink SQL's window table functions: {@code TUMBLE}, {@code HOP}, {@code CUMULATE} and {@code SESSION}. Each adds
 * {@code window_start}, {@code window_end} and {@code window_time} (the window's end − 1 ms, the event-time attribute
 * of a window aggregation's result) to its input's columns. Flink's {@code SESSION(TABLE t PARTITION BY k, DESCRIPTOR(ts),
 * gap)} is rewritten to Calcite's key-descriptor form by {@link SessionPartitioning}.
 */
final class WindowFunctions {
    private WindowFunctions() {}

    /** The name of the column every window table function adds after {@code window_end}. */
    static final String WINDOW_TIME = "window_time";

    private static final SqlReturnTypeInference WITH_WINDOW_TIME = binding -> {
        RelDataType base = SqlWindowTableFunction.ARG0_TABLE_FUNCTION_WINDOWING.inferReturnType(binding);
        RelDataTypeFactory f = binding.getTypeFactory();
        RelDataType end = base.getFieldList().get(base.getFieldCount() - 1).getType();
        return f.builder().addAll(base.getFieldList()).add(WINDOW_TIME, end).build();
    };

    static final SqlOperator TUMBLE = new SqlTumbleTableFunction() {
        @Override
        public SqlReturnTypeInference getRowTypeInference() {
            return WITH_WINDOW_TIME;
        }
    };

    static final SqlOperator HOP = new SqlHopTableFunction() {
        @Override
        public SqlReturnTypeInference getRowTypeInference() {
            return WITH_WINDOW_TIME;
        }
    };

    /** {@code CUMULATE(TABLE t, DESCRIPTOR(ts), step, size [, offset])}: the same operands as HOP's. */
    static final SqlOperator CUMULATE = new SqlHopTableFunction() {
        @Override
        public String getName() {
            return "CUMULATE";
        }

        @Override
        public SqlReturnTypeInference getRowTypeInference() {
            return WITH_WINDOW_TIME;
        }
    };

    static final SqlOperator SESSION = new SqlSessionTableFunction() {
        @Override
        public SqlReturnTypeInference getRowTypeInference() {
            return WITH_WINDOW_TIME;
        }
    };

    private static final Set<String> NAMES = Set.of("TUMBLE", "HOP", "SESSION", "CUMULATE");

    /** Calcite's standard operators without its own window table functions, then these. */
    static SqlOperatorTable withStandardOperators() {
        SqlOperatorTable std = SqlStdOperatorTable.instance();
        SqlOperatorTable withoutWindows = new SqlOperatorTable() {
            @Override
            public void lookupOperatorOverloads(SqlIdentifier opName, SqlFunctionCategory category, SqlSyntax syntax, List<SqlOperator> operatorList,
                    SqlNameMatcher nameMatcher) {
                List<SqlOperator> found = new ArrayList<>();
                std.lookupOperatorOverloads(opName, category, syntax, found, nameMatcher);
                for (SqlOperator op : found) {
                    if (!(op instanceof SqlWindowTableFunction && NAMES.contains(op.getName()))) {
                        operatorList.add(op);
                    }
                }
            }

            @Override
            public List<SqlOperator> getOperatorList() {
                return std.getOperatorList().stream().filter(op -> !(op instanceof SqlWindowTableFunction && NAMES.contains(op.getName()))).toList();
            }
        };
        return SqlOperatorTables.chain(SqlOperatorTables.of(TUMBLE, HOP, CUMULATE, SESSION), withoutWindows);
    }
}
