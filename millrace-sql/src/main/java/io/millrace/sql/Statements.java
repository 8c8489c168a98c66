package io.millrace.sql;

import io.millrace.sql.types.Types;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.sql.catalog.Catalog;
import io.millrace.sql.catalog.CatalogEntry;
import io.millrace.sql.catalog.ColumnInfo;
import io.millrace.sql.catalog.ConnectorTable;
import io.millrace.sql.catalog.ViewDefinition;
import io.millrace.sql.connector.ConnectorException;
import io.millrace.sql.connector.Connectors;
import io.millrace.sql.connector.TableConnector;
import io.millrace.sql.exec.Calc;
import io.millrace.sql.exec.PhysicalNode;
import io.millrace.sql.exec.SinkNode;
import io.millrace.sql.parser.SqlText;
import io.millrace.sql.parser.Statement;
import io.millrace.sql.planner.Lowering;
import io.millrace.sql.planner.QueryPlanner;
import io.millrace.sql.planner.ScanPlanner;
import io.millrace.sql.planner.TableDefinitions;
import io.millrace.sql.types.UnsupportedSql;
import io.millrace.sql.runtime.RowProjector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.type.RelDataTypeFactory;

/** The statements of a session other than running jobs: DDL, SHOW, DESCRIBE, SET, EXPLAIN, and planning. */
final class Statements {
    private static final RowType SHOW_TABLES = RowType.builder().field("table name", FieldType.STRING).build();
    private static final RowType DESCRIBE = RowType.builder().field("name", FieldType.STRING).field("type", FieldType.STRING)
            .field("null", FieldType.BOOLEAN).nullableField("key", FieldType.STRING).nullableField("extras", FieldType.STRING)
            .nullableField("watermark", FieldType.STRING).build();
    private static final RowType SET = RowType.builder().field("key", FieldType.STRING).field("value", FieldType.STRING).build();
    private static final RowType PLAN = RowType.builder().field("plan", FieldType.STRING).build();

    private final Catalog catalog;
    private final SessionSettings settings;
    private final RelDataTypeFactory types = io.millrace.sql.types.Types.typeFactory();

    Statements(Catalog catalog, SessionSettings settings) {
        this.catalog = catalog;
        this.settings = settings;
    }

    StatementResult run(Statement s, String script) {
        if (s instanceof Statement.CreateTable t) {
            if (catalog.get(t.name()) != null) {
                if (t.ifNotExists()) {
                    return StatementResult.ok("Table '" + t.name() + "' exists already");
                }
                throw new SqlException("a table or view named '" + t.name() + "' exists already", t.line(), t.column(), script, null);
            }
            catalog.add(new TableDefinitions(script).table(t));
            return StatementResult.ok("Table '" + t.name() + "' created");
        }
        if (s instanceof Statement.CreateView v) {
            if (catalog.get(v.name()) != null) {
                if (v.ifNotExists()) {
                    return StatementResult.ok("View '" + v.name() + "' exists already");
                }
                throw new SqlException("a table or view named '" + v.name() + "' exists already", v.line(), v.column(), script, null);
            }
            catalog.add(TableDefinitions.view(v, catalog, script));
            return StatementResult.ok("View '" + v.name() + "' created");
        }
        if (s instanceof Statement.Drop d) {
            CatalogEntry e = catalog.get(d.name());
            String what = d.view() ? "view" : "table";
            if (e == null) {
                if (d.ifExists()) {
                    return StatementResult.ok("No " + what + " '" + d.name() + "'");
                }
                throw new SqlException("no " + what + " named '" + d.name() + "'; there are " + catalog.names(), d.line(), d.column(), script, null);
            }
            if (d.view() != (e instanceof ViewDefinition)) {
                throw new SqlException("'" + d.name() + "' is a " + (d.view() ? "table: use DROP TABLE" : "view: use DROP VIEW"), d.line(), d.column(),
                        script, null);
            }
            catalog.remove(d.name());
            return StatementResult.ok((d.view() ? "View '" : "Table '") + d.name() + "' dropped");
        }
        if (s instanceof Statement.ShowTables) {
            List<Row> rows = new ArrayList<>();
            for (String n : catalog.names()) {
                rows.add(Row.of(SHOW_TABLES, n));
            }
            return new StatementResult("OK", SHOW_TABLES, rows, null);
        }
        if (s instanceof Statement.Describe d) {
            return describe(d, script);
        }
        if (s instanceof Statement.Set set) {
            if (set.key() == null) {
                List<Row> rows = new ArrayList<>();
                for (Map.Entry<String, String> e : new java.util.TreeMap<>(settings.values()).entrySet()) {
                    rows.add(Row.of(SET, e.getKey(), e.getValue()));
                }
                return new StatementResult("OK", SET, rows, null);
            }
            try {
                settings.set(set.key(), set.value());
            } catch (IllegalArgumentException e) {
                throw new SqlException(e.getMessage(), set.line(), set.column(), script, e);
            }
            return StatementResult.ok("Set '" + set.key() + "' = '" + set.value() + "'");
        }
        if (s instanceof Statement.Reset r) {
            settings.reset(r.key());
            return StatementResult.ok(r.key() == null ? "Reset all options" : "Reset '" + r.key() + "'");
        }
        if (s instanceof Statement.Explain e) {
            return new StatementResult("OK", PLAN, List.of(Row.of(PLAN, explain(e.statement(), script))), null);
        }
        throw new IllegalStateException("statement " + s.getClass().getSimpleName() + " runs as a job");
    }

    private StatementResult describe(Statement.Describe d, String script) {
        CatalogEntry e = catalog.get(d.name());
        if (e == null) {
            throw new SqlException("no table or view named '" + d.name() + "'; there are " + catalog.names(), d.line(), d.column(), script, null);
        }
        List<String> key = e instanceof ConnectorTable t ? t.primaryKey() : List.of();
        List<Row> rows = new ArrayList<>();
        for (ColumnInfo c : e.columns()) {
            String extras = c.isComputed() ? "AS " + c.expression().text() : null;
            String watermark = c.name().equals(e.rowtime()) && e instanceof ConnectorTable t ? t.watermark().text() : null;
            String type = c.typeName(types).replace(" NOT NULL", "") + (c.name().equals(e.rowtime()) ? " *ROWTIME*" : "");
            rows.add(Row.of(DESCRIBE, c.name(), type, c.nullable(), key.contains(c.name()) ? "PRI(" + String.join(", ", key) + ")" : null,
                    extras, watermark));
        }
        return new StatementResult("OK", DESCRIBE, rows, null);
    }

    private String explain(Statement s, String script) {
        if (s instanceof Statement.StatementSet set) {
            StringBuilder ast = new StringBuilder();
            List<PhysicalNode> sinks = new ArrayList<>();
            for (Statement.Insert i : set.inserts()) {
                QueryPlanner.Planned planned = new QueryPlanner(catalog, script).plan(i.query());
                ast.append(ast.length() == 0 ? "" : "\n").append("LogicalSink(table=[").append(i.table()).append("])\n")
                        .append(RelOptUtil.toString(planned.rel()).replaceAll("(?m)^", "  "));
                sinks.add(insertPlan(i, script));
            }
            return "== Abstract Syntax Tree ==\n" + ast + "\n== Physical Plan ==\n" + PhysicalNode.explain(sinks);
        }
        SqlText query = s instanceof Statement.Insert i ? i.query() : ((Statement.Query) s).query();
        QueryPlanner.Planned planned = new QueryPlanner(catalog, script).plan(query);
        PhysicalNode node = s instanceof Statement.Insert i ? insertPlan(i, script) : lower(planned, query, script);
        return "== Abstract Syntax Tree ==\n" + RelOptUtil.toString(planned.rel()) + "\n== Physical Plan ==\n" + node.explain();
    }

    PhysicalNode queryPlan(Statement.Query q, String script) {
        return lower(new QueryPlanner(catalog, script).plan(q.query()), q.query(), script);
    }

    private static PhysicalNode lower(QueryPlanner.Planned planned, SqlText query, String script) {
        try {
            return new Lowering(new ScanPlanner()).lower(planned.rel());
        } catch (UnsupportedSql | ConnectorException e) {
            throw new SqlException(e.getMessage(), query.line(), query.column(), script, e);
        }
    }

    /** The plan of an INSERT: the query, a conversion to the table's columns if their names differ, and the table's sink. */
    PhysicalNode insertPlan(Statement.Insert ins, String script) {
        CatalogEntry e = catalog.get(ins.table());
        if (!(e instanceof ConnectorTable table)) {
            String reason = e == null ? "no table named '" + ins.table() + "'; there are " + catalog.names()
                    : "'" + ins.table() + "' is not a connector table: INSERT INTO writes to a table with a connector";
            throw new SqlException(reason, ins.line(), ins.column(), script, null);
        }
        PhysicalNode query = lower(new QueryPlanner(catalog, script).plan(ins.query()), ins.query(), script);
        TableConnector.Opened connector;
        try {
            connector = Connectors.open(table.name(), table.physicalType(), table.primaryKey(), table.options());
        } catch (ConnectorException ex) {
            throw new SqlException(ex.getMessage(), ins.line(), ins.column(), script, ex);
        }
        if (!query.changelogMode().isInsertOnly() && !connector.acceptsChanges()) {
            throw new SqlException("table '" + table.name() + "' (connector '" + table.connector() + "') accepts inserts only, but the query emits "
                    + query.changelogMode() + " (write it to a table that takes changes, like an 'upsert-kafka' table)", ins.query().line(),
                    ins.query().column(), script, null);
        }
        RowType target = table.physicalType();
        RowType source = query.rowType();
        if (source.size() != target.size()) {
            throw new SqlException("the query gives " + source.size() + " columns " + source.names() + " but table '" + table.name() + "' has "
                    + target.size() + " physical columns " + target.names(), ins.query().line(), ins.query().column(), script, null);
        }
        for (int i = 0; i < target.size(); i++) {
            if (source.type(i) != target.type(i) || source.type(i) == FieldType.ROW
                    && !io.millrace.sql.runtime.Values.sameShape(source.rowType(i), target.rowType(i))) {
                throw new SqlException("column " + (i + 1) + " of the query ('" + source.name(i) + "', " + source.typeName(i) + ") does not fit column '"
                        + target.name(i) + "' (" + target.typeName(i) + ") of table '" + table.name() + "': CAST it", ins.query().line(),
                        ins.query().column(), script, null);
            }
            if (source.isNullable(i) && !target.isNullable(i)) {
                throw new SqlException("column " + (i + 1) + " of the query ('" + source.name(i) + "') may be null but column '" + target.name(i)
                        + "' of table '" + table.name() + "' is NOT NULL: filter nulls out or use COALESCE", ins.query().line(), ins.query().column(),
                        script, null);
            }
        }
        PhysicalNode rows = query;
        if (!source.equals(target)) {
            int[] copies = new int[target.size()];
            for (int i = 0; i < copies.length; i++) {
                copies[i] = i;
            }
            rows = new Calc(query, null, new RowProjector(target, copies, new io.millrace.sql.runtime.Expr[target.size()]), target, -1,
                    "select=[" + String.join(", ", target.names()) + "]");
        }
        io.millrace.api.sink.Sink<Row> sink;
        try {
            sink = connector.sink();
        } catch (ConnectorException ex) {
            throw new SqlException(ex.getMessage(), ins.line(), ins.column(), script, ex);
        }
        if (sink == null) {
            throw new SqlException("table '" + table.name() + "' (connector '" + table.connector() + "') cannot be written: it is a source only",
                    ins.line(), ins.column(), script, null);
        }
        List<String> sinkKey = connector.sinkKey();
        int[] key = new int[sinkKey.size()];
        for (int i = 0; i < key.length; i++) {
            key[i] = target.index(sinkKey.get(i));
        }
        return new SinkNode(rows, table.name(), sink, key);
    }
}
