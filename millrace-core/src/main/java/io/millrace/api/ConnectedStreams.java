package io.millrace.api;

import io.millrace.api.functions.CoProcessFunction;
import io.millrace.api.functions.KeySelector;
import io.millrace.api.plan.LogicalNode;
import io.millrace.api.plan.Partitioning;
import io.millrace.api.plan.Specs;
import java.util.Objects;

/**
 * Two streams feeding one two-input operator. Keyed when both sides are keyed (then they share keyed
 * state and timers); a broadcast side reaches every subtask of the operator.
 */
public final class ConnectedStreams<A, B> {
    private final DataStream<A> first;
    private final DataStream<B> second;

    ConnectedStreams(DataStream<A> first, DataStream<B> second) {
        this.first = first;
        this.second = second;
    }

    /** Keys both inputs; equal keys meet in the same subtask. */
    public <K> ConnectedStreams<A, B> keyBy(KeySelector<A, K> key1, KeySelector<B, K> key2) {
        return new ConnectedStreams<>(first.keyBy(key1), second.keyBy(key2));
    }

    public <R> DataStream<R> process(CoProcessFunction<A, B, R> function) {
        Objects.requireNonNull(function, "function");
        boolean firstKeyed = first.partitioning == Partitioning.HASH;
        boolean secondKeyed = second.partitioning == Partitioning.HASH;
        if (firstKeyed != secondKeyed && !(firstKeyed && second.partitioning == Partitioning.BROADCAST)) {
            throw new IllegalStateException(
                    "connect: key both streams, neither, or key the first and broadcast the second");
        }
        LogicalNode node = first.pipeline.addNode(new Specs.CoProcessSpec<>(function, firstKeyed));
        first.connectTo(node, 0);
        second.connectTo(node, 1);
        return new DataStream<>(first.pipeline, node);
    }
}
