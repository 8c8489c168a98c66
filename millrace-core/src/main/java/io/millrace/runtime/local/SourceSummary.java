package io.millrace.runtime.local;

import io.millrace.api.metrics.JobMetrics;
import io.millrace.api.plan.LogicalNode;
import io.millrace.api.plan.LogicalPlan;
import io.millrace.api.plan.Specs;
import io.millrace.api.source.BadRecordPolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * What each source of a job read, for the log at the end of the job: per source, the records it emitted and the
 * bad records it skipped, sent to its dead letters, or failed on. Stateless.
 */
final class SourceSummary {
    private SourceSummary() {}

    /**
     * One line per source, in plan order, e.g. {@code source 'readings': 5 records, 2 bad records dead-lettered} or
     * {@code source 'numbers': 1000 records, no bad records}.
     */
    static List<String> lines(LogicalPlan plan, JobMetrics metrics) {
        List<String> lines = new ArrayList<>();
        for (LogicalNode n : plan.nodes()) {
            if (n.spec() instanceof Specs.SourceSpec<?> source) {
                long records = metrics.sum(n.name(), m -> m.recordsOut());
                long bad = metrics.sum(n.name(), m -> m.badRecords());
                lines.add("source '" + n.name() + "': " + count(records, "record") + ", "
                        + (bad == 0 ? "no bad records" : count(bad, "bad record") + " " + fate(source.badRecords())));
            }
        }
        return lines;
    }

    private static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private static String fate(BadRecordPolicy policy) {
        return switch (policy) {
            case FAIL -> "(the job fails on the first)";
            case SKIP -> "skipped";
            case DEAD_LETTER -> "dead-lettered";
        };
    }
}
