package io.millrace.sql.planner;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * Flink's {@code SESSION(TABLE t PARTITION BY k1, k2, DESCRIPTOR(ts), gap)} as Calcite's
 * {@code SESSION(TABLE t, DESCRIPTOR(ts), DESCRIPTOR(k1, k2), gap)}, rewritten in the parsed tree before validation
 * (positions kept, so errors still point into the text as written). Calcite parses the table with set semantics but
 * converts it to a correlation the planner cannot lower; the descriptor form converts to a plain table function scan
 * over its input.
 */
final class SessionPartitioning {
    private SessionPartitioning() {}

    /** Rewrites every partitioned SESSION call under {@code node} in place; returns the (possibly new) root. */
    static SqlNode rewrite(SqlNode node) {
        SqlNode replaced = replacement(node);
        if (replaced != null) {
            return replaced;
        }
        visit(node);
        return node;
    }

    private static void visit(SqlNode node) {
        if (node instanceof SqlNodeList list) {
            for (int i = 0; i < list.size(); i++) {
                SqlNode r = replacement(list.get(i));
                if (r != null) {
                    list.set(i, r);
                } else {
                    visit(list.get(i));
                }
            }
        } else if (node instanceof SqlCall call && !(node instanceof SqlOrderBy)) {
            List<SqlNode> operands = call.getOperandList();
            for (int i = 0; i < operands.size(); i++) {
                SqlNode op = operands.get(i);
                SqlNode r = replacement(op);
                if (r != null) {
                    call.setOperand(i, r);
                } else {
                    visit(op);
                }
            }
        } else if (node instanceof SqlOrderBy orderBy) {
            visit(orderBy.query);
        }
    }

    private static SqlNode replacement(SqlNode node) {
        if (!(node instanceof SqlCall call) || node instanceof SqlSelect || !"SESSION".equalsIgnoreCase(call.getOperator().getName())
                || call.operandCount() == 0 || !(call.operand(0) instanceof SqlCall table) || table.getKind() != SqlKind.SET_SEMANTICS_TABLE) {
            return null;
        }
        SqlNodeList partition = table.operand(1);
        SqlNodeList order = table.operand(2);
        if (order != null && !order.isEmpty()) {
            return null; // left to the validator, which rejects ORDER BY here
        }
        List<SqlNode> operands = new ArrayList<>();
        operands.add(table.operand(0));
        List<SqlNode> rest = call.getOperandList().subList(1, call.operandCount());
        for (SqlNode r : rest) {
            visit(r);
        }
        if (rest.isEmpty()) {
            return null;
        }
        operands.add(rest.get(0));
        if (partition != null && !partition.isEmpty()) {
            operands.add(new SqlBasicCall(SqlStdOperatorTable.DESCRIPTOR, partition.getList(), partition.getParserPosition()));
        }
        operands.addAll(rest.subList(1, rest.size()));
        return new SqlBasicCall(call.getOperator(), operands, call.getParserPosition(), call.getFunctionQuantifier());
    }
}
