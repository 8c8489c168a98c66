package io.millrace.sql.planner;

import io.millrace.sql.types.Types;
import io.millrace.sql.types.UnsupportedSql;
import io.millrace.sql.types.MillraceTypeSystem;
import io.millrace.api.row.RowType;
import io.millrace.sql.SqlException;
import io.millrace.sql.catalog.Catalog;
import io.millrace.sql.catalog.ColumnInfo;
import io.millrace.sql.catalog.ConnectorTable;
import io.millrace.sql.catalog.ViewDefinition;
import io.millrace.sql.connector.ConnectorException;
import io.millrace.sql.connector.Connectors;
import io.millrace.sql.parser.SqlText;
import io.millrace.sql.parser.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Turns {@code CREATE TABLE} and {@code CREATE VIEW} into catalog entries, checking what Flink checks: column names
 * unique, computed columns valid over the physical columns, the WATERMARK's column a TIMESTAMP or TIMESTAMP_LTZ of
 * precision at most 3 and its expression a timestamp, primary key columns declared, and the connector's options.
 */
public final class TableDefinitions {
    private final RelDataTypeFactory types = new JavaTypeFactoryImpl(MillraceTypeSystem.INSTANCE);
    private final String script;

    public TableDefinitions(String script) {
        this.script = script;
    }

    public ConnectorTable table(Statement.CreateTable ddl) {
        List<ColumnInfo> physical = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Statement.Column c : ddl.columns()) {
            if (!names.add(c.name())) {
                throw new SqlException("column '" + c.name() + "' is declared twice", c.line(), c.column(), script, null);
            }
            if (!c.isComputed()) {
                physical.add(ColumnInfo.of(c.name(), Types.relType(c.type(), types), null));
            }
        }
        if (physical.isEmpty()) {
            throw new SqlException("table '" + ddl.name() + "' needs at least one physical column", ddl.line(), ddl.column(), script, null);
        }
        RowType physicalType = Types.rowType(CatalogSchema.rowType(physical, types));
        ConnectorTable physicalOnly = new ConnectorTable(ddl.name(), physical, physicalType, null, null, List.of(), ddl.options());
        List<ColumnInfo> columns = new ArrayList<>();
        for (Statement.Column c : ddl.columns()) {
            if (c.isComputed()) {
                RelDataType t = expressionType(c.expression(), physicalOnly);
                if (Types.fieldTypeOrNull(t) == null) {
                    throw new SqlException("computed column '" + c.name() + "' has type " + Types.sqlName(t) + ", which is not supported yet",
                            c.line(), c.column(), script, null);
                }
                columns.add(ColumnInfo.of(c.name(), t, c.expression()));
            } else {
                columns.add(ColumnInfo.of(c.name(), Types.relType(c.type(), types), null));
            }
        }
        String rowtime = null;
        SqlText watermark = null;
        if (ddl.watermark() != null) {
            Statement.Watermark w = ddl.watermark();
            ColumnInfo col = columns.stream().filter(c -> c.name().equals(w.column())).findFirst().orElseThrow(() -> new SqlException(
                    "WATERMARK FOR '" + w.column() + "': no such column; columns are " + columns.stream().map(ColumnInfo::name).toList(),
                    w.line(), w.col(), script, null));
            if (!isTimestamp(col.sqlType()) || col.precision() > 3) {
                throw new SqlException("the event-time attribute '" + w.column() + "' must be TIMESTAMP(3) or TIMESTAMP_LTZ(3) (precision 0 to 3), not "
                        + col.typeName(types), w.line(), w.col(), script, null);
            }
            ConnectorTable all = ScanPlanner.withoutComputed(new ConnectorTable(ddl.name(), columns, physicalType, null, null, List.of(), ddl.options()), true);
            RelDataType t = expressionType(w.expression(), all);
            if (!isTimestamp(t.getSqlTypeName())) {
                throw new SqlException("the WATERMARK expression must be a timestamp, like " + w.column() + " - INTERVAL '5' SECOND; it is "
                        + Types.sqlName(t), w.expression().line(), w.expression().column(), script, null);
            }
            rowtime = w.column();
            watermark = w.expression();
        }
        for (String k : ddl.primaryKey()) {
            if (!names.contains(k)) {
                throw new SqlException("PRIMARY KEY column '" + k + "' is not a column of table '" + ddl.name() + "'", ddl.line(), ddl.column(), script, null);
            }
        }
        try {
            Connectors.open(ddl.name(), physicalType, ddl.primaryKey(), ddl.options());
        } catch (ConnectorException e) {
            throw new SqlException(e.getMessage(), ddl.line(), ddl.column(), script, e);
        }
        return new ConnectorTable(ddl.name(), List.copyOf(columns), physicalType, rowtime, watermark, List.copyOf(ddl.primaryKey()),
                java.util.Collections.unmodifiableMap(new LinkedHashMap<>(ddl.options())));
    }

    private static boolean isTimestamp(SqlTypeName t) {
        return t == SqlTypeName.TIMESTAMP || t == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    /** The type of {@code expression} over the columns of {@code over}; errors at the expression's place in the script. */
    private RelDataType expressionType(SqlText expression, ConnectorTable over) {
        String prefix = "SELECT ";
        String select = prefix + expression.text() + "\nFROM " + ScanPlanner.quote(over.name());
        SqlText piece = new SqlText(select, expression.line(), expression.column() - prefix.length());
        Catalog single = new Catalog();
        single.add(over);
        RelNode rel = new QueryPlanner(single, script).plan(piece).rel();
        return rel.getRowType().getFieldList().get(0).getType();
    }

    /** A view of {@code query}, planned now to check it and to know its columns. */
    public static ViewDefinition view(Statement.CreateView ddl, Catalog catalog, String script) {
        QueryPlanner.Planned planned = new QueryPlanner(catalog, script).plan(ddl.query());
        io.millrace.sql.exec.PhysicalNode node;
        try {
            node = new Lowering(new ScanPlanner()).lower(planned.rel());
        } catch (UnsupportedSql e) {
            throw new SqlException(e.getMessage(), ddl.query().line(), ddl.query().column(), script, e);
        }
        String rowtime = node.rowtime() < 0 ? null : node.rowType().name(node.rowtime());
        return new ViewDefinition(ddl.name(), ddl.query(), QueryPlanner.columns(planned.rel()), rowtime);
    }
}
