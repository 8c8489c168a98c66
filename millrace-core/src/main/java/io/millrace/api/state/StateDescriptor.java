package io.millrace.api.state;

import java.util.Objects;

/**
 * Names a piece of keyed state and says what kind it is. The name is unique within an operator and
 * identifies the state in snapshots; TTL is set per descriptor.
 */
public abstract class StateDescriptor<S extends State> implements java.io.Serializable {
    private final String name;
    private StateTtlConfig ttl = StateTtlConfig.DISABLED;

    protected StateDescriptor(String name) {
        this.name = Objects.requireNonNull(name, "state name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("state name must not be blank");
        }
    }

    public final String name() {
        return name;
    }

    public final StateTtlConfig ttl() {
        return ttl;
    }

    /** Values of this state expire per the config; returns this descriptor. */
    public StateDescriptor<S> enableTimeToLive(StateTtlConfig config) {
        this.ttl = Objects.requireNonNull(config, "ttl");
        return this;
    }

    /** The kind of state, part of a snapshot's compatibility check. */
    public abstract Kind kind();

    /** The kinds of keyed state. */
    public enum Kind {
        VALUE,
        LIST,
        MAP,
        REDUCING,
        AGGREGATING,
        SORTED_MAP
    }

    @Override
    public String toString() {
        return kind() + " state '" + name + "'";
    }
}
