package io.millrace.sql.planner;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.RowType;
import io.millrace.sql.catalog.CatalogEntry;
import io.millrace.sql.catalog.ConnectorTable;
import io.millrace.sql.connector.Connectors;
import io.millrace.sql.connector.TableConnector;
import io.millrace.sql.exec.WindowAggregate;
import io.millrace.sql.runtime.LateRowFunction;
import io.millrace.sql.types.UnsupportedSql;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalTableScan;

/**
 * The dead-letter table of a window aggregation: the table named by the {@code 'late-rows.table'} option of the
 * source table the window reads, whose columns are any of {@code row STRING}, {@code reason STRING},
 * {@code event_time TIMESTAMP_LTZ(3)}, {@code watermark TIMESTAMP_LTZ(3)} and {@code operator STRING}.
 */
final class LateRowsPlanner {
    private LateRowsPlanner() {}

    /** The late rows' destination of a window over {@code input}, or null when its source names none. */
    static WindowAggregate.LateRows plan(RelNode input) {
        LogicalTableScan scan = sourceWithOption(input);
        if (scan == null) {
            return null;
        }
        ConnectorTable source = (ConnectorTable) scan.getTable().unwrap(CatalogSchema.EntryTable.class).entry;
        String name = source.options().get(Connectors.LATE_ROWS_TABLE);
        RelOptTable target = scan.getTable().getRelOptSchema().getTableForMember(List.of(name));
        CatalogEntry entry = target == null ? null : target.unwrap(CatalogSchema.EntryTable.class).entry;
        if (!(entry instanceof ConnectorTable table)) {
            throw new UnsupportedSql("option '" + Connectors.LATE_ROWS_TABLE + "' = '" + name + "' of table '" + source.name() + "': "
                    + (entry == null ? "there is no table named '" + name + "'" : "'" + name + "' is not a connector table"));
        }
        RowType type = table.physicalType();
        LateRowFunction.Column[] layout = new LateRowFunction.Column[type.size()];
        for (int i = 0; i < type.size(); i++) {
            String column = type.name(i);
            LateRowFunction.Column c;
            try {
                c = LateRowFunction.Column.valueOf(column.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new UnsupportedSql("dead-letter table '" + name + "' has column '" + column + "'; its columns can be row STRING, reason STRING, "
                        + "event_time TIMESTAMP_LTZ(3), watermark TIMESTAMP_LTZ(3), operator STRING");
            }
            FieldType want = c == LateRowFunction.Column.EVENT_TIME || c == LateRowFunction.Column.WATERMARK ? FieldType.TIMESTAMP : FieldType.STRING;
            if (type.type(i) != want) {
                throw new UnsupportedSql("column '" + column + "' of dead-letter table '" + name + "' must be "
                        + (want == FieldType.STRING ? "STRING" : "TIMESTAMP_LTZ(3) or TIMESTAMP(3)") + ", is " + type.typeName(i));
            }
            layout[i] = c;
        }
        TableConnector.Opened opened = Connectors.open(table.name(), type, table.options());
        if (opened.sink() == null) {
            throw new UnsupportedSql("dead-letter table '" + name + "' (connector '" + table.connector() + "') cannot be written: it is a source only");
        }
        return new WindowAggregate.LateRows(table.name(), opened.sink(), type, layout);
    }

    private static LogicalTableScan sourceWithOption(RelNode rel) {
        if (rel instanceof LogicalTableScan scan) {
            CatalogSchema.EntryTable t = scan.getTable().unwrap(CatalogSchema.EntryTable.class);
            return t != null && t.entry instanceof ConnectorTable c && c.options().containsKey(Connectors.LATE_ROWS_TABLE) ? scan : null;
        }
        for (RelNode in : rel.getInputs()) {
            LogicalTableScan found = sourceWithOption(in);
            if (found != null) {
                return found;
            }
        }
        return null;
    }
}
