package io.millrace.api.plan;

import io.millrace.api.PipelineConfig;
import java.util.List;

/** A whole pipeline as data, in creation order (every node after its inputs). */
public record LogicalPlan(List<LogicalNode> nodes, PipelineConfig config) {
    public LogicalPlan {
        nodes = List.copyOf(nodes);
    }
}
