package io.millrace.sql.exec;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.row.Row;

/**
 * The translation of one statement's physical plan into a pipeline. Operator uids are {@code <prefix>-<n>-<kind>},
 * numbered in the order the plan is translated (inputs first), so the same statement over the same tables gives the
 * same uids and restores its own checkpoints and savepoints. A node with a {@link PhysicalNode#reuseKey} is translated
 * once per translation: the statements of a statement set that read the same table share its source.
 */
public final class Translation {
    private final Pipeline pipeline;
    private final String prefix;
    private int next;
    private final java.util.Map<String, DataStream<Row>> reused = new java.util.HashMap<>();

    public Translation(Pipeline pipeline, String prefix) {
        this.pipeline = pipeline;
        this.prefix = prefix;
    }

    public Pipeline pipeline() {
        return pipeline;
    }

    /** Gives {@code stream}'s operator the next uid and a name. */
    public <T> DataStream<T> name(DataStream<T> stream, String kind, String name) {
        return stream.uid(prefix + "-" + next++ + "-" + kind).name(name);
    }

    /** The next uid, for operators that are not streams (sinks). */
    public String nextUid(String kind) {
        return prefix + "-" + next++ + "-" + kind;
    }

    DataStream<Row> input(PhysicalNode node) {
        String key = node.reuseKey();
        if (key == null) {
            return node.translate(this);
        }
        DataStream<Row> done = reused.get(key);
        if (done == null) {
            done = node.translate(this);
            reused.put(key, done);
        }
        return done;
    }
}
