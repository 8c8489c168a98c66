package io.millrace.sql.planner;

import io.millrace.sql.types.Types;
import io.millrace.sql.types.UnsupportedSql;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.RowType;
import io.millrace.sql.exec.PhysicalNode;
import io.millrace.sql.exec.WindowAggregate;
import io.millrace.sql.exec.WindowSpec;
import io.millrace.sql.runtime.AggregateCall;
import io.millrace.sql.runtime.Expr;
import io.millrace.sql.runtime.GroupKey;
import io.millrace.sql.runtime.WindowResultFunction;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Lowers {@code Aggregate(Project?(Filter?(TUMBLE|HOP|CUMULATE|SESSION(input))))} grouped by {@code window_start},
 * {@code window_end}, optionally {@code window_time}, and keys onto a {@link WindowAggregate}: the keys and the
 * aggregate arguments are computed from the window function's input rows, the filter runs before the window, and the
 * window bounds come from the core window. {@code window_time} in the result is its event-time attribute, so the
 * result can be windowed again.
 */
final class WindowAggregateLowering {
    private final Lowering lowering;
    private final ExprCompiler compiler;

    WindowAggregateLowering(Lowering lowering, ExprCompiler compiler) {
        this.lowering = lowering;
        this.compiler = compiler;
    }

    PhysicalNode lower(LogicalAggregate agg) {
        if (agg.getGroupSets().size() != 1) {
            throw new UnsupportedSql("GROUPING SETS, ROLLUP and CUBE are not supported yet");
        }
        RelNode in = agg.getInput();
        List<RexNode> fields;
        if (in instanceof LogicalProject p) {
            fields = p.getProjects();
            in = p.getInput();
        } else {
            fields = null;
        }
        RexNode condition = null;
        if (in instanceof LogicalFilter f) {
            condition = f.getCondition();
            in = f.getInput();
        }
        if (!(in instanceof TableFunctionScan tvf)) {
            throw new UnsupportedSql("aggregation without a window is not supported yet: aggregate over TABLE(TUMBLE(...)) or TABLE(HOP(...)) "
                    + "and group by window_start, window_end");
        }
        PhysicalNode input = lowering.lower(tvf.getInputs().get(0));
        WindowSpec window = Lowering.windowSpec(tvf, input);
        int n = input.rowType().size();
        if (fields == null) {
            fields = new ArrayList<>();
            for (int i = 0; i < tvf.getRowType().getFieldCount(); i++) {
                fields.add(new RexInputRef(i, tvf.getRowType().getFieldList().get(i).getType()));
            }
        }
        if (condition != null) {
            requireNoWindowColumns(condition, n, "the WHERE condition of a window aggregation");
            if (Lowering.readsWatermark(List.of(condition))) {
                throw new UnsupportedSql("CURRENT_WATERMARK in the WHERE of a window aggregation is not supported yet: filter the window "
                        + "function's table in a subquery or view, TABLE(TUMBLE(TABLE v, ...))");
            }
        }

        List<Integer> groups = agg.getGroupSet().asList();
        int[] layout = new int[agg.getRowType().getFieldCount()];
        List<Expr> keyExprs = new ArrayList<>();
        List<String> keyNames = new ArrayList<>();
        RowType.Builder keyType = RowType.builder();
        boolean start = false;
        boolean end = false;
        boolean nullableKey = false;
        int rowtime = -1;
        for (int g = 0; g < groups.size(); g++) {
            RexNode e = fields.get(groups.get(g));
            String name = agg.getRowType().getFieldNames().get(g);
            if (e instanceof RexInputRef ref && ref.getIndex() == n) {
                layout[g] = WindowResultFunction.WINDOW_START;
                start = true;
            } else if (e instanceof RexInputRef ref && ref.getIndex() == n + 1) {
                layout[g] = WindowResultFunction.WINDOW_END;
                end = true;
            } else if (e instanceof RexInputRef ref && ref.getIndex() == n + 2) {
                layout[g] = WindowResultFunction.WINDOW_TIME;
                rowtime = rowtime < 0 ? g : rowtime;
            } else {
                requireNoWindowColumns(e, n, "grouping key '" + name + "'");
                layout[g] = keyExprs.size();
                keyExprs.add(compiler.compile(e));
                keyNames.add(name);
                FieldType t = fieldType(e.getType(), name);
                Types.addField(keyType, "k" + keyNames.size(), e.getType(), true);
                nullableKey |= e.getType().isNullable() || !t.isPrimitive() && t != FieldType.STRING; // rows and decimals: keyed as a Row
            }
        }
        if (window.kind() == WindowSpec.Kind.SESSION) {
            requireSessionKeys(window, groups, fields, n, keyNames);
        }
        if (!start || !end) {
            throw new UnsupportedSql("a window aggregation must group by both window_start and window_end of its window table function");
        }
        List<org.apache.calcite.rel.core.AggregateCall> aggCalls = agg.getAggCallList();
        AggregateCall[] calls = new AggregateCall[aggCalls.size()];
        for (int i = 0; i < calls.length; i++) {
            calls[i] = call(aggCalls.get(i), fields, input.rowType(), n);
            layout[groups.size() + i] = keyExprs.size() + i;
        }
        boolean single = keyExprs.size() == 1 && !nullableKey;
        GroupKey key = new GroupKey(keyExprs.toArray(new Expr[0]), keyType.build(), single);
        Expr preFilter = condition == null ? null : compiler.compile(condition);
        WindowAggregate.LateRows late = LateRowsPlanner.plan(tvf.getInputs().get(0));
        return new WindowAggregate(input, window, preFilter, key, keyNames, calls, layout, Types.rowType(agg.getRowType()), rowtime, late);
    }

    private AggregateCall call(org.apache.calcite.rel.core.AggregateCall call, List<RexNode> fields, RowType inType, int n) {
        String text = call.toString();
        if (call.isDistinct()) {
            throw new UnsupportedSql("DISTINCT aggregates (" + text + ") are not supported yet");
        }
        if (call.filterArg >= 0) {
            throw new UnsupportedSql("aggregate FILTER clauses (" + text + ") are not supported yet");
        }
        FieldType result = fieldType(call.getType(), call.getName());
        AggregateCall.Kind kind = switch (call.getAggregation().getKind()) {
            case COUNT -> call.getArgList().isEmpty() ? AggregateCall.Kind.COUNT_STAR : AggregateCall.Kind.COUNT;
            case SUM, SUM0 -> AggregateCall.Kind.SUM;
            case MIN -> AggregateCall.Kind.MIN;
            case MAX -> AggregateCall.Kind.MAX;
            case AVG -> AggregateCall.Kind.AVG;
            default -> throw new UnsupportedSql("aggregate function " + call.getAggregation().getName() + " is not supported yet "
                    + "(supported: COUNT, SUM, MIN, MAX, AVG)");
        };
        if (kind == AggregateCall.Kind.COUNT_STAR) {
            return new AggregateCall(kind, -1, null, null, false, result, text);
        }
        if (call.getArgList().size() != 1) {
            throw new UnsupportedSql("aggregate " + text + " with several arguments is not supported yet");
        }
        RexNode arg = fields.get(call.getArgList().get(0));
        requireNoWindowColumns(arg, n, "the argument of " + text);
        FieldType argType = fieldType(arg.getType(), text);
        if (argType == FieldType.STRING && kind != AggregateCall.Kind.COUNT) {
            throw new UnsupportedSql(call.getAggregation().getName() + " of a STRING is not supported yet");
        }
        if (argType == FieldType.ROW && kind != AggregateCall.Kind.COUNT) {
            throw new UnsupportedSql(call.getAggregation().getName() + " of a ROW is not supported");
        }
        boolean floating = kind != AggregateCall.Kind.COUNT
                && (argType == FieldType.DOUBLE || argType == FieldType.FLOAT || result == FieldType.DOUBLE || result == FieldType.FLOAT);
        AggregateCall.Decimal decimal = null;
        if (kind != AggregateCall.Kind.COUNT && argType == FieldType.DECIMAL) {
            if (result != FieldType.DECIMAL) {
                throw new UnsupportedSql(text + " of a DECIMAL with result type " + Types.sqlName(call.getType()) + " is not supported");
            }
            decimal = new AggregateCall.Decimal(arg.getType().getScale(), call.getType().getPrecision(), call.getType().getScale());
            floating = false;
        }
        if (arg instanceof RexInputRef ref) {
            return new AggregateCall(kind, ref.getIndex(), inType.type(ref.getIndex()), null, floating, result, text, decimal);
        }
        return new AggregateCall(kind, -1, argType, compiler.compile(arg), floating, result, text, decimal);
    }

    /**
     * A session is a run of rows of one partition, so the group keys must be the PARTITION BY keys: keying the core's
     * session windows by them gives the same sessions as partitioning first.
     */
    private static void requireSessionKeys(WindowSpec window, List<Integer> groups, List<RexNode> fields, int n, List<String> keyNames) {
        java.util.Set<Integer> grouped = new java.util.HashSet<>();
        boolean plain = true;
        for (int g : groups) {
            RexNode e = fields.get(g);
            if (e instanceof RexInputRef ref && ref.getIndex() < n) {
                grouped.add(ref.getIndex());
            } else if (!(e instanceof RexInputRef ref && ref.getIndex() <= n + 2)) {
                plain = false;
            }
        }
        if (!plain || !grouped.equals(new java.util.HashSet<>(window.partitionKeys()))) {
            throw new UnsupportedSql("a SESSION window aggregation must group by window_start, window_end and exactly its PARTITION BY columns "
                    + (window.partitionKeyNames().isEmpty() ? "(none here)" : window.partitionKeyNames()) + ", was grouped by " + keyNames
                    + ": write SESSION(TABLE t PARTITION BY " + (keyNames.isEmpty() ? "k" : String.join(", ", keyNames)) + ", DESCRIPTOR(...), gap)");
        }
    }

    private static FieldType fieldType(RelDataType type, String what) {
        FieldType t = Types.fieldTypeOrNull(type);
        if (t == null) {
            throw new UnsupportedSql(what + " has type " + type.getFullTypeString() + ", which is not supported yet");
        }
        return t;
    }

    private static void requireNoWindowColumns(RexNode e, int n, String what) {
        ImmutableBitSet used = RelOptUtil.InputFinder.bits(e);
        if (used.get(n) || used.get(n + 1) || used.get(n + 2)) {
            throw new UnsupportedSql(what + " uses window_start, window_end or window_time in an expression, which is not supported yet: "
                    + "group by window_start, window_end (and window_time) as they are and compute on them in an outer query");
        }
    }
}
