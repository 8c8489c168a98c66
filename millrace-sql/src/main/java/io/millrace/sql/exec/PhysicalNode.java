package io.millrace.sql.exec;

import io.millrace.api.DataStream;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import java.util.List;

/**
 * A node of a query's physical plan: what operator it becomes, the rows it emits ({@link #rowType()}), which column
 * is the event-time attribute ({@link #rowtime()}, -1 for none) and which changes it emits
 * ({@link #changelogMode()}). {@link #translate} adds its operators to a pipeline; {@link #explain} prints the tree.
 */
public abstract class PhysicalNode {
    private final RowType rowType;
    private final int rowtime;

    protected PhysicalNode(RowType rowType, int rowtime) {
        this.rowType = rowType;
        this.rowtime = rowtime;
    }

    public final RowType rowType() {
        return rowType;
    }

    public final int rowtime() {
        return rowtime;
    }

    public abstract List<PhysicalNode> inputs();

    /** The changes this node emits; by default those of its inputs (a stateless node passes kinds on). */
    public ChangelogMode changelogMode() {
        for (PhysicalNode in : inputs()) {
            if (!in.changelogMode().isInsertOnly()) {
                return in.changelogMode();
            }
        }
        return ChangelogMode.insertOnly();
    }

    /** The node's kind, like {@code Calc}. */
    public abstract String kind();

    /** The node's settings, like {@code where=[>(temp, 80)]}. */
    public abstract String details();

    /** Adds this node's operators (and its inputs') to the translation's pipeline. */
    public abstract DataStream<Row> translate(Translation t);

    /** The plan rooted here, one node per line, inputs indented under their consumer. */
    public final String explain() {
        StringBuilder b = new StringBuilder();
        explain(b, "", "");
        return b.toString();
    }

    private void explain(StringBuilder b, String first, String rest) {
        String d = details();
        b.append(first).append(kind()).append('(').append(d.isEmpty() ? "" : d + ", ").append("changelogMode=").append(changelogMode()).append(")\n");
        for (PhysicalNode in : inputs()) {
            in.explain(b, rest + "+- ", rest + "   ");
        }
    }
}
