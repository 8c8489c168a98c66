package io.millrace.api;

import io.millrace.api.functions.BroadcastProcessFunction;
import io.millrace.api.functions.KeyedBroadcastProcessFunction;
import io.millrace.api.plan.LogicalNode;
import io.millrace.api.plan.Partitioning;
import io.millrace.api.plan.OperatorSpec;
import io.millrace.api.plan.Specs;
import java.util.Objects;

/**
 * A stream connected to a {@link BroadcastStream}: the stream's records are processed where they are (or by key,
 * after {@code keyBy}), the broadcast records by every subtask. The operator's watermark is the lower of both inputs'
 * watermarks; the broadcast states are checkpointed with it and restored to every subtask at any parallelism.
 */
public final class BroadcastConnectedStream<IN1, IN2> {
    private final DataStream<IN1> data;
    private final BroadcastStream<IN2> broadcast;

    BroadcastConnectedStream(DataStream<IN1> data, BroadcastStream<IN2> broadcast) {
        this.data = data;
        this.broadcast = broadcast;
    }

    /** For a keyed stream: the keyed side has keyed state and timers, and reads the broadcast state. */
    public <K, OUT> DataStream<OUT> process(KeyedBroadcastProcessFunction<K, IN1, IN2, OUT> function) {
        Objects.requireNonNull(function, "function");
        if (data.partitioning != Partitioning.HASH) {
            throw new IllegalStateException("a KeyedBroadcastProcessFunction needs a keyed stream: call keyBy before connect,"
                    + " or use a BroadcastProcessFunction");
        }
        return add(new Specs.KeyedBroadcastProcessSpec<>(function, broadcast.descriptors));
    }

    /** For a stream that is not keyed. */
    public <OUT> DataStream<OUT> process(BroadcastProcessFunction<IN1, IN2, OUT> function) {
        Objects.requireNonNull(function, "function");
        if (data.partitioning == Partitioning.HASH) {
            throw new IllegalStateException("a BroadcastProcessFunction is for a stream that is not keyed: on a keyed stream use"
                    + " a KeyedBroadcastProcessFunction");
        }
        return add(new Specs.BroadcastProcessSpec<>(function, broadcast.descriptors));
    }

    private <OUT> DataStream<OUT> add(OperatorSpec spec) {
        LogicalNode node = data.pipeline.addNode(spec);
        data.connectTo(node, 0);
        broadcast.stream.connectTo(node, 1);
        return new DataStream<>(data.pipeline, node);
    }
}
