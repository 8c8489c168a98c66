package io.millrace.api.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/** An operator of the logical plan: its spec, its inputs, and per-operator settings. */
public final class LogicalNode implements java.io.Serializable {
    private final int id;
    private final OperatorSpec spec;
    private final List<LogicalEdge> inputs = new ArrayList<>();
    private String name;
    private String uid;
    private int parallelism = -1;

    public LogicalNode(int id, OperatorSpec spec) {
        this.id = id;
        this.spec = Objects.requireNonNull(spec, "spec");
        this.name = spec.defaultName();
    }

    public int id() {
        return id;
    }

    public OperatorSpec spec() {
        return spec;
    }

    public List<LogicalEdge> inputs() {
        return Collections.unmodifiableList(inputs);
    }

    public void addInput(LogicalEdge edge) {
        inputs.add(Objects.requireNonNull(edge, "edge"));
    }

    public String name() {
        return name;
    }

    public void setName(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    /** Stable id that maps this operator's state across versions of a job; null if not set. */
    public String uid() {
        return uid;
    }

    public void setUid(String uid) {
        this.uid = Objects.requireNonNull(uid, "uid");
    }

    /** -1 for the pipeline default. */
    public int parallelism() {
        return parallelism;
    }

    public void setParallelism(int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism of '" + name + "' must be at least 1, was " + parallelism);
        }
        this.parallelism = parallelism;
    }

    @Override
    public String toString() {
        return name + "#" + id;
    }
}
