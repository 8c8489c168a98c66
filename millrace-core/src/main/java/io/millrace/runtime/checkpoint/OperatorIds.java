package io.millrace.runtime.checkpoint;

import io.millrace.api.plan.LogicalNode;

/** The id under which an operator's state is stored: its uid, or one derived from its position and name. */
public final class OperatorIds {
    private OperatorIds() {}

    public static String of(LogicalNode node) {
        if (node.uid() != null) {
            return node.uid();
        }
        return "op" + node.id() + "-" + node.name().replaceAll("[^A-Za-z0-9_.-]", "_");
    }
}
