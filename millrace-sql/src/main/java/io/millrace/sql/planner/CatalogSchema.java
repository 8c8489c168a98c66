package io.millrace.sql.planner;

import io.millrace.sql.catalog.CatalogEntry;
import io.millrace.sql.catalog.ColumnInfo;
import io.millrace.sql.catalog.ViewDefinition;
import java.util.List;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;

/** The Calcite tables that stand for catalog entries while a statement is planned. */
final class CatalogSchema {
    private CatalogSchema() {}

    static RelDataType rowType(List<ColumnInfo> columns, RelDataTypeFactory f) {
        RelDataTypeFactory.Builder b = f.builder();
        for (ColumnInfo c : columns) {
            b.add(c.name(), c.relType(f));
        }
        return b.build();
    }

    static AbstractTable tableOf(CatalogEntry entry) {
        return entry instanceof ViewDefinition v ? new ViewTable(v) : new EntryTable(entry);
    }

    /** A table read by a scan that the lowering turns into the entry's source. */
    static final class EntryTable extends AbstractTable {
        final CatalogEntry entry;

        EntryTable(CatalogEntry entry) {
            this.entry = entry;
        }

        @Override
        public RelDataType getRowType(RelDataTypeFactory f) {
            return rowType(entry.columns(), f);
        }
    }

    /** A view: replaced by its query's plan where it is used. */
    static final class ViewTable extends AbstractTable implements TranslatableTable {
        final ViewDefinition view;

        ViewTable(ViewDefinition view) {
            this.view = view;
        }

        @Override
        public RelDataType getRowType(RelDataTypeFactory f) {
            return rowType(view.columns(), f);
        }

        @Override
        public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable table) {
            return context.expandView(table.getRowType(), view.query().text(), List.of(), List.of(view.name())).project();
        }
    }
}
