package io.millrace.sql.planner;

import io.millrace.sql.types.Types;
import io.millrace.sql.types.MillraceTypeSystem;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.sql.catalog.Catalog;
import io.millrace.sql.catalog.ColumnInfo;
import io.millrace.sql.catalog.ConnectorTable;
import io.millrace.sql.connector.Connectors;
import io.millrace.sql.connector.TableConnector;
import io.millrace.sql.exec.PhysicalNode;
import io.millrace.sql.exec.SourceScan;
import io.millrace.sql.exec.ValuesScan;
import io.millrace.sql.parser.SqlText;
import io.millrace.sql.runtime.Expr;
import io.millrace.sql.runtime.RowProjector;
import io.millrace.sql.runtime.Values;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/**
 * Plans the reading of connector tables: the connector's physical rows, the computed columns compiled from their
 * expressions, and the watermark expression; also the rows of {@code VALUES}.
 */
public final class ScanPlanner {
    /** Plans a connector table's scan. */
    public PhysicalNode scan(ConnectorTable table) {
        TableConnector.Opened connector = Connectors.open(table.name(), table.physicalType(), table.primaryKey(), table.options());
        RowType full = rowType(table);
        RowProjector computed = null;
        if (table.columns().stream().anyMatch(ColumnInfo::isComputed)) {
            computed = computedColumns(table, full);
        }
        Expr watermark = null;
        Expr rowtimeExpr = null;
        int rowtime = -1;
        if (table.rowtime() != null) {
            rowtime = full.index(table.rowtime());
            Expr[] both = overPhysicalRows(table, table.watermark().text(), quote(table.rowtime()));
            watermark = both[0];
            rowtimeExpr = both[1];
        }
        return new SourceScan(table.name(), connector, full, computed, rowtime, rowtimeExpr, watermark,
                table.watermark() == null ? null : table.watermark().text());
    }

    private static RowType rowType(ConnectorTable table) {
        RowType.Builder b = RowType.builder();
        org.apache.calcite.rel.type.RelDataTypeFactory f = new org.apache.calcite.jdbc.JavaTypeFactoryImpl(MillraceTypeSystem.INSTANCE);
        for (ColumnInfo c : table.columns()) {
            Types.addField(b, c.name(), c.relType(f));
        }
        return b.build();
    }

    /** A table of the physical columns only ({@code all} false), or of every column as if physical. */
    static ConnectorTable withoutComputed(ConnectorTable t, boolean all) {
        List<ColumnInfo> cols = new ArrayList<>();
        for (ColumnInfo c : t.columns()) {
            if (all || !c.isComputed()) {
                cols.add(new ColumnInfo(c.name(), c.sqlType(), c.precision(), c.scale(), c.fields(), c.nullable(), null));
            }
        }
        return new ConnectorTable(t.name(), cols, t.physicalType(), null, null, t.primaryKey(), t.options());
    }

    private RowProjector computedColumns(ConnectorTable table, RowType full) {
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < table.columns().size(); i++) {
            ColumnInfo c = table.columns().get(i);
            select.append(i == 0 ? "" : ", ");
            select.append(c.isComputed() ? "(" + c.expression().text() + ")" : quote(c.name())).append(" AS ").append(quote(c.name()));
        }
        select.append(" FROM ").append(quote(table.name()));
        RelNode rel = planOver(new SqlText(select.toString(), 1, 1), withoutComputed(table, false), select.toString());
        LogicalProject project = (LogicalProject) rel;
        ExprCompiler compiler = new ExprCompiler(rel.getCluster().getRexBuilder());
        int[] copies = new int[full.size()];
        Expr[] exprs = new Expr[full.size()];
        for (int i = 0; i < full.size(); i++) {
            RexNode e = project.getProjects().get(i);
            if (e instanceof RexInputRef ref) {
                copies[i] = ref.getIndex();
            } else {
                copies[i] = -1;
                exprs[i] = compiler.compile(e);
            }
        }
        return new RowProjector(full, copies, exprs);
    }

    /** Expressions over all columns (computed ones too), compiled over the physical columns they are computed from. */
    private Expr[] overPhysicalRows(ConnectorTable table, String... expressions) {
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < expressions.length; i++) {
            select.append(i == 0 ? "" : ", ").append(expressions[i]);
        }
        select.append(" FROM (SELECT ");
        for (int i = 0; i < table.columns().size(); i++) {
            ColumnInfo c = table.columns().get(i);
            select.append(i == 0 ? "" : ", ");
            select.append(c.isComputed() ? "(" + c.expression().text() + ")" : quote(c.name())).append(" AS ").append(quote(c.name()));
        }
        select.append(" FROM ").append(quote(table.name())).append(") AS ").append(quote(table.name()));
        RelNode rel = planOver(new SqlText(select.toString(), 1, 1), withoutComputed(table, false), select.toString());
        LogicalProject outer = (LogicalProject) rel;
        ExprCompiler compiler = new ExprCompiler(rel.getCluster().getRexBuilder());
        Expr[] out = new Expr[expressions.length];
        for (int i = 0; i < out.length; i++) {
            RexNode e = outer.getProjects().get(i);
            if (outer.getInput() instanceof LogicalProject inner) {
                e = org.apache.calcite.plan.RelOptUtil.pushPastProject(e, inner);
            }
            out[i] = compiler.compile(e);
        }
        return out;
    }

    static RelNode planOver(SqlText select, ConnectorTable only, String script) {
        Catalog single = new Catalog();
        single.add(only);
        return new QueryPlanner(single, script).plan(select).rel();
    }

    static String quote(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    /** The rows of a VALUES clause. */
    public PhysicalNode values(LogicalValues values) {
        RowType type = Types.rowType(values.getRowType());
        List<Row> rows = new ArrayList<>();
        for (List<RexLiteral> tuple : values.getTuples()) {
            Object[] v = new Object[tuple.size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = Values.cast(ExprCompiler.literal(tuple.get(i)), type.type(i));
            }
            rows.add(Row.of(type, v));
        }
        return new ValuesScan(rows, type);
    }
}
