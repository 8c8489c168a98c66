package io.millrace.api.plan;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.KeySelector;

/**
 * One input of a node: the producing node, which of its outputs (main, or a side output tag), the
 * partitioning, the key selector for HASH, and which input of the consumer (0, or 1 for the second
 * input of a two-input operator).
 */
public record LogicalEdge(
        LogicalNode from, OutputTag<?> sideOutput, Partitioning partitioning, KeySelector<?, ?> keySelector, int inputIndex)
        implements java.io.Serializable {
    public LogicalEdge {
        if (partitioning == Partitioning.HASH && keySelector == null) {
            throw new IllegalArgumentException("a HASH edge needs a key selector");
        }
        if (inputIndex != 0 && inputIndex != 1) {
            throw new IllegalArgumentException("inputIndex must be 0 or 1, was " + inputIndex);
        }
    }
}
