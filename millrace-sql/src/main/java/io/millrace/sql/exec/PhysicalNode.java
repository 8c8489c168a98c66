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

    /**
     * What makes this node the same as another one of the same job, so that a job of several statements (a statement
     * set) runs it once and feeds every consumer from it: a table's scan; null (the default) for a node that is not
     * shared.
     */
    public String reuseKey() {
        return null;
    }

    /** Adds this node's operators (and its inputs') to the translation's pipeline. */
    public abstract DataStream<Row> translate(Translation t);

    /** The plan rooted here, one node per line, inputs indented under their consumer. */
    public final String explain() {
        return explain(List.of(this));
    }

    /**
     * The plans of one job with several roots (the sinks of a statement set), one after the other with a blank line
     * between them. A node shared by several of them (see {@link #reuseKey}) is printed in full once, with
     * {@code reuse_id=[n]}, and as {@code Reused(reference_id=[n])} where it is used again.
     */
    public static String explain(List<PhysicalNode> roots) {
        java.util.Map<String, Integer> uses = new java.util.HashMap<>();
        for (PhysicalNode r : roots) {
            r.countReuse(uses);
        }
        java.util.Map<String, Integer> ids = new java.util.HashMap<>();
        java.util.Set<String> printed = new java.util.HashSet<>();
        StringBuilder b = new StringBuilder();
        for (PhysicalNode r : roots) {
            if (b.length() > 0) {
                b.append('\n');
            }
            r.explain(b, "", "", uses, ids, printed);
        }
        return b.toString();
    }

    private void countReuse(java.util.Map<String, Integer> uses) {
        String key = reuseKey();
        if (key != null && uses.merge(key, 1, Integer::sum) > 1) {
            return;
        }
        for (PhysicalNode in : inputs()) {
            in.countReuse(uses);
        }
    }

    private void explain(StringBuilder b, String first, String rest, java.util.Map<String, Integer> uses, java.util.Map<String, Integer> ids,
            java.util.Set<String> printed) {
        String key = reuseKey();
        boolean shared = key != null && uses.getOrDefault(key, 0) > 1;
        if (shared && !printed.add(key)) {
            b.append(first).append("Reused(reference_id=[").append(ids.get(key)).append("])\n");
            return;
        }
        String d = details();
        if (shared) {
            ids.put(key, ids.size() + 1);
            d = (d.isEmpty() ? "" : d + ", ") + "reuse_id=[" + ids.get(key) + "]";
        }
        b.append(first).append(kind()).append('(').append(d.isEmpty() ? "" : d + ", ").append("changelogMode=").append(changelogMode()).append(")\n");
        for (PhysicalNode in : inputs()) {
            in.explain(b, rest + "+- ", rest + "   ", uses, ids, printed);
        }
    }
}
