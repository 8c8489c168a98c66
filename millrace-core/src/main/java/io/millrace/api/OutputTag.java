package io.millrace.api;

import java.util.Objects;

/**
 * Names a side output of an operator, such as late records or dead letters. Two tags are the same
 * side output when their ids are equal.
 */
public final class OutputTag<T> implements java.io.Serializable {
    private final String id;

    public OutputTag(String id) {
        this.id = Objects.requireNonNull(id, "id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("output tag id must not be blank");
        }
    }

    public String id() {
        return id;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OutputTag<?> t && t.id.equals(id);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return "OutputTag(" + id + ")";
    }
}
