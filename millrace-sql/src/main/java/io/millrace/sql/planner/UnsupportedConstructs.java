package io.millrace.sql.planner;

import io.millrace.sql.SqlException;
import io.millrace.sql.parser.SqlText;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Rejects, at their place in the text, the constructs Calcite accepts but the planner cannot run yet: regular joins,
 * aggregations that are not over a window table function, ORDER BY and LIMIT, DISTINCT, OVER windows and set
 * operations.
 */
final class UnsupportedConstructs {
    private final SqlText query;
    private final String script;

    private UnsupportedConstructs(SqlText query, String script) {
        this.query = query;
        this.script = script;
    }

    static void check(SqlNode node, SqlText query, String script) {
        new UnsupportedConstructs(query, script).visit(node);
    }

    private void visit(SqlNode node) {
        if (node == null) {
            return;
        }
        if (node instanceof SqlNodeList list) {
            for (SqlNode n : list) {
                visit(n);
            }
        } else if (node instanceof SqlSelect select) {
            select(select);
        } else if (node instanceof SqlOrderBy orderBy) {
            throw fail(orderBy.getParserPosition(), "ORDER BY and LIMIT are not supported yet on streaming queries");
        } else if (node instanceof SqlJoin join) {
            throw fail(join.getParserPosition(), "joins are not supported yet (" + join.getJoinType() + " JOIN of two tables); "
                    + "join in Java with the DataStream API and fromDataStream");
        } else if (node instanceof SqlWith with) {
            for (SqlNode item : with.withList) {
                visit(((SqlWithItem) item).query);
            }
            visit(with.body);
        } else if (node instanceof SqlCall call) {
            call(call);
        }
    }

    private void select(SqlSelect select) {
        if (select.isDistinct()) {
            throw fail(select.getParserPosition(), "SELECT DISTINCT is not supported yet (it is an updating query)");
        }
        if (select.getOrderList() != null && !select.getOrderList().isEmpty() || select.getFetch() != null || select.getOffset() != null) {
            throw fail(select.getParserPosition(), "ORDER BY and LIMIT are not supported yet on streaming queries");
        }
        if (select.getHaving() != null) {
            throw fail(select.getHaving().getParserPosition(), "HAVING is not supported yet: filter the windowed aggregation in an outer query");
        }
        SqlNode aggregate = select.getGroup() != null && !select.getGroup().isEmpty() ? select.getGroup() : firstAggregate(select.getSelectList());
        if (aggregate != null && !isWindowTableFunction(select.getFrom())) {
            throw fail(aggregate.getParserPosition(), "aggregation without a window (a GROUP BY or an aggregate function not over "
                    + "TABLE(TUMBLE(...)) or TABLE(HOP(...))) is not supported yet: it is an updating query; group by window_start, "
                    + "window_end of a window table function");
        }
        visit(select.getFrom());
        visit(select.getWhere());
        visit(select.getSelectList());
    }

    private static SqlNode firstAggregate(SqlNode node) {
        if (node instanceof SqlNodeList list) {
            for (SqlNode n : list) {
                SqlNode found = firstAggregate(n);
                if (found != null) {
                    return found;
                }
            }
        } else if (node instanceof SqlCall call && !(node instanceof SqlSelect)) {
            if (call.getOperator().isAggregator() && call.getKind() != SqlKind.OVER) {
                return call;
            }
            for (SqlNode operand : call.getOperandList()) {
                SqlNode found = firstAggregate(operand);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    private static boolean isWindowTableFunction(SqlNode from) {
        SqlNode n = from;
        if (n instanceof SqlBasicCall as && as.getKind() == SqlKind.AS) {
            n = as.operand(0);
        }
        if (n instanceof SqlBasicCall table && table.getKind() == SqlKind.COLLECTION_TABLE) {
            return table.operand(0) instanceof SqlCall inner && isFunction(inner, "TUMBLE", "HOP", "CUMULATE", "SESSION");
        }
        return false;
    }

    private static boolean isFunction(SqlCall call, String... names) {
        String name = call.getOperator().getName();
        for (String n : names) {
            if (n.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    private void call(SqlCall call) {
        SqlKind kind = call.getKind();
        if (kind == SqlKind.UNION || kind == SqlKind.INTERSECT || kind == SqlKind.EXCEPT) {
            throw fail(call.getParserPosition(), kind + " is not supported yet");
        }
        if (kind == SqlKind.OVER) {
            throw fail(call.getParserPosition(), "OVER windows are not supported yet: use a window table function (TUMBLE, HOP, CUMULATE, SESSION)");
        }
        if (kind == SqlKind.SELECT || kind == SqlKind.EXISTS || kind == SqlKind.IN && call.operand(1) instanceof SqlSelect) {
            if (kind != SqlKind.SELECT) {
                throw fail(call.getParserPosition(), "subqueries in conditions are not supported yet");
            }
        }
        for (SqlNode operand : call.getOperandList()) {
            visit(operand);
        }
    }

    private SqlException fail(SqlParserPos pos, String reason) {
        if (pos.getLineNum() <= 0) {
            return new SqlException(reason, query.line(), query.column(), script, null);
        }
        int line = query.scriptLine(pos.getLineNum());
        int col = query.scriptColumn(pos.getLineNum(), pos.getColumnNum());
        return new SqlException(reason, line, col, script, null);
    }
}
