package io.millrace.api;

import io.millrace.api.plan.LogicalNode;

/** The end of a stream: a sink operator, with its name, uid and parallelism. */
public final class DataStreamSink {
    private final LogicalNode node;

    DataStreamSink(LogicalNode node) {
        this.node = node;
    }

    public DataStreamSink name(String name) {
        node.setName(name);
        return this;
    }

    public DataStreamSink uid(String uid) {
        node.setUid(uid);
        return this;
    }

    public DataStreamSink parallelism(int parallelism) {
        node.setParallelism(parallelism);
        return this;
    }
}
