package io.millrace.sql.planner;

import io.millrace.sql.types.Types;
import io.millrace.sql.types.UnsupportedSql;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.RowType;
import io.millrace.sql.catalog.CatalogEntry;
import io.millrace.sql.catalog.ConnectorTable;
import io.millrace.sql.catalog.StreamTable;
import io.millrace.sql.exec.Calc;
import io.millrace.sql.exec.PhysicalNode;
import io.millrace.sql.exec.StreamScan;
import io.millrace.sql.exec.WindowSpec;
import io.millrace.sql.exec.WindowTableFunction;
import io.millrace.sql.runtime.Expr;
import io.millrace.sql.runtime.RowProjector;
import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/**
 * Lowers a Calcite logical plan onto Millrace's physical nodes: scans, Calc (filter and projection), window table
 * functions and window aggregations. A relational operator it has no physical node for yet is an
 * {@link UnsupportedSql} naming it.
 */
public final class Lowering {
    private final ScanPlanner scans;

    public Lowering(ScanPlanner scans) {
        this.scans = scans;
    }

    public PhysicalNode lower(RelNode rel) {
        ExprCompiler compiler = new ExprCompiler(rel.getCluster().getRexBuilder());
        if (rel instanceof LogicalTableScan scan) {
            CatalogEntry entry = scan.getTable().unwrap(CatalogSchema.EntryTable.class).entry;
            if (entry instanceof ConnectorTable t) {
                return scans.scan(t);
            }
            StreamTable s = (StreamTable) entry;
            RowType type = Types.rowType(scan.getRowType());
            return new StreamScan(s.name(), s.stream(), type, s.rowtime() == null ? -1 : type.index(s.rowtime()));
        }
        if (rel instanceof LogicalFilter filter) {
            PhysicalNode in = lower(filter.getInput());
            return new Calc(in, compiler.compile(filter.getCondition()), null, in.rowType(), in.rowtime(), "where=[" + filter.getCondition() + "]",
                    readsWatermark(List.of(filter.getCondition())));
        }
        if (rel instanceof LogicalProject project) {
            return project(project, compiler);
        }
        if (rel instanceof TableFunctionScan tvf) {
            PhysicalNode in = lower(tvf.getInputs().get(0));
            if (!in.changelogMode().isInsertOnly()) {
                throw new UnsupportedSql("a window table function over an updating input (changelog " + in.changelogMode()
                        + ", like an 'upsert-kafka' table) is not supported yet: windows take append-only input");
            }
            WindowSpec window = windowSpec(tvf, in);
            if (window.kind() == WindowSpec.Kind.SESSION) {
                throw new UnsupportedSql("SESSION windows are supported under a window aggregation only "
                        + "(GROUP BY window_start, window_end and the PARTITION BY keys)");
            }
            return new WindowTableFunction(in, window, Types.rowType(tvf.getRowType()));
        }
        if (rel instanceof LogicalAggregate agg) {
            return new WindowAggregateLowering(this, compiler).lower(agg);
        }
        if (rel instanceof LogicalValues values) {
            return scans.values(values);
        }
        throw new UnsupportedSql(rel.getRelTypeName().replace("Logical", "") + " is not supported yet");
    }

    private PhysicalNode project(LogicalProject project, ExprCompiler compiler) {
        RelNode input = project.getInput();
        RexNode condition = null;
        if (input instanceof LogicalFilter filter) {
            condition = filter.getCondition();
            input = filter.getInput();
        }
        PhysicalNode in = lower(input);
        RowType out = Types.rowType(project.getRowType());
        List<RexNode> exprs = project.getProjects();
        int[] copies = new int[exprs.size()];
        Expr[] computed = new Expr[exprs.size()];
        int rowtime = -1;
        for (int i = 0; i < exprs.size(); i++) {
            RexNode e = exprs.get(i);
            if (e instanceof RexInputRef ref && in.rowType().type(ref.getIndex()) == out.type(i)) {
                copies[i] = ref.getIndex();
                if (ref.getIndex() == in.rowtime() && rowtime < 0) {
                    rowtime = i;
                }
            } else {
                copies[i] = -1;
                computed[i] = compiler.compile(e);
            }
        }
        if (condition == null && out.equals(in.rowType()) && isIdentity(copies)) {
            return in; // a projection of every column as it is: no operator
        }
        String text = (condition == null ? "" : "where=[" + condition + "], ") + "select=[" + selectText(project) + "]";
        List<RexNode> all = new java.util.ArrayList<>(exprs);
        if (condition != null) {
            all.add(condition);
        }
        return new Calc(in, condition == null ? null : compiler.compile(condition), new RowProjector(out, copies, computed), out, rowtime, text,
                readsWatermark(all));
    }

    /** Whether any of {@code exprs} calls CURRENT_WATERMARK. */
    static boolean readsWatermark(List<RexNode> exprs) {
        for (RexNode e : exprs) {
            if (e instanceof RexCall c && (c.getOperator().getName().equalsIgnoreCase("CURRENT_WATERMARK") || readsWatermark(c.getOperands()))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isIdentity(int[] copies) {
        for (int i = 0; i < copies.length; i++) {
            if (copies[i] != i) {
                return false;
            }
        }
        return true;
    }

    private static String selectText(LogicalProject project) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < project.getProjects().size(); i++) {
            String name = project.getRowType().getFieldNames().get(i);
            RexNode e = project.getProjects().get(i);
            b.append(i == 0 ? "" : ", ").append(e).append(e instanceof RexInputRef ? "" : " AS " + name);
        }
        return b.toString();
    }

    /**
     * The window of a TUMBLE, HOP, CUMULATE or SESSION call; its time column must be the input's event-time
     * attribute.
     */
    static WindowSpec windowSpec(TableFunctionScan tvf, PhysicalNode input) {
        RexCall call = (RexCall) tvf.getCall();
        String kind = call.getOperator().getName().toUpperCase(java.util.Locale.ROOT);
        if (!List.of("TUMBLE", "HOP", "CUMULATE", "SESSION").contains(kind)) {
            throw new UnsupportedSql("table function " + call.getOperator().getName() + " is not supported yet: use TUMBLE, HOP, CUMULATE or SESSION");
        }
        List<RexNode> ops = new java.util.ArrayList<>(call.getOperands());
        if (!ops.isEmpty() && !(ops.get(0) instanceof RexCall c && c.getKind() == org.apache.calcite.sql.SqlKind.DESCRIPTOR)) {
            ops.remove(0); // the table operand, when Calcite keeps it
        }
        RexCall descriptor = (RexCall) ops.get(0);
        int column = ((RexInputRef) descriptor.getOperands().get(0)).getIndex();
        String name = input.rowType().name(column);
        if (column != input.rowtime()) {
            throw new UnsupportedSql("DESCRIPTOR(" + name + ") of " + kind + " must name an event-time attribute (a column with a WATERMARK, "
                    + "or the window_time of a window aggregation"
                    + (input.rowtime() >= 0 ? "; here that is '" + input.rowType().name(input.rowtime()) + "'" : "; the input has none") + ")");
        }
        if (input.rowType().type(column) != FieldType.TIMESTAMP) {
            throw new UnsupportedSql("DESCRIPTOR(" + name + ") must name a TIMESTAMP or TIMESTAMP_LTZ column");
        }
        switch (kind) {
            case "TUMBLE" -> {
                long size = millis(ops.get(1), "the size of TUMBLE");
                long offset = ops.size() > 2 ? millis(ops.get(2), "the offset of TUMBLE") : 0;
                return new WindowSpec(WindowSpec.Kind.TUMBLE, size, size, offset, column, name, List.of(), List.of());
            }
            case "HOP", "CUMULATE" -> {
                String slideName = kind.equals("HOP") ? "slide" : "step";
                long slide = millis(ops.get(1), "the " + slideName + " of " + kind);
                long size = millis(ops.get(2), "the size of " + kind);
                long offset = ops.size() > 3 ? millis(ops.get(3), "the offset of " + kind) : 0;
                if (size % slide != 0) {
                    throw new UnsupportedSql(kind + "'s size (" + size + " ms) must be a whole multiple of its " + slideName + " (" + slide + " ms)");
                }
                return new WindowSpec(kind.equals("HOP") ? WindowSpec.Kind.HOP : WindowSpec.Kind.CUMULATE, size, slide, offset, column, name,
                        List.of(), List.of());
            }
            default -> {
                return sessionSpec(ops, column, name, input);
            }
        }
    }

    private static WindowSpec sessionSpec(List<RexNode> ops, int column, String name, PhysicalNode input) {
        List<Integer> keys = new java.util.ArrayList<>();
        List<String> keyNames = new java.util.ArrayList<>();
        int gapAt = 1;
        if (ops.size() > 2 && ops.get(1) instanceof RexCall keyDescriptor && keyDescriptor.getKind() == org.apache.calcite.sql.SqlKind.DESCRIPTOR) {
            for (RexNode k : keyDescriptor.getOperands()) {
                int i = ((RexInputRef) k).getIndex();
                keys.add(i);
                keyNames.add(input.rowType().name(i));
            }
            gapAt = 2;
        }
        long gap = millis(ops.get(gapAt), "the gap of SESSION");
        return new WindowSpec(WindowSpec.Kind.SESSION, gap, gap, 0, column, name, List.copyOf(keys), List.copyOf(keyNames));
    }

    private static long millis(RexNode node, String what) {
        if (!(node instanceof RexLiteral lit) || lit.getValueAs(BigDecimal.class) == null) {
            throw new UnsupportedSql(what + " must be a constant interval like INTERVAL '10' SECOND");
        }
        if (lit.getType().getSqlTypeName().getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.INTERVAL_YEAR_MONTH) {
            throw new UnsupportedSql(what + " must be a day-time interval (days to milliseconds), not " + lit);
        }
        long ms = lit.getValueAs(BigDecimal.class).longValue();
        if (ms <= 0) {
            throw new UnsupportedSql(what + " must be positive, was " + ms + " ms");
        }
        return ms;
    }
}
