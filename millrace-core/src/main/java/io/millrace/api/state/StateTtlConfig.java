package io.millrace.api.state;

import java.time.Duration;
import java.util.Objects;

/**
 * Time-to-live of keyed state, measured in processing time (the pipeline's clock). An expired value is
 * never returned, and it is physically removed: on access, and by an incremental sweep that visits a
 * few entries on every state access and on every processing-time tick of the task.
 */
public final class StateTtlConfig implements java.io.Serializable {
    /** No expiry. */
    public static final StateTtlConfig DISABLED = new StateTtlConfig(null, UpdateType.ON_CREATE_AND_WRITE);

    /** When the clock of an entry restarts. */
    public enum UpdateType {
        /** Expire a fixed time after the last write. */
        ON_CREATE_AND_WRITE,
        /** Expire a fixed time after the last read or write. */
        ON_READ_AND_WRITE
    }

    private final Duration ttl;
    private final UpdateType updateType;

    private StateTtlConfig(Duration ttl, UpdateType updateType) {
        this.ttl = ttl;
        this.updateType = updateType;
    }

    public static StateTtlConfig afterWrite(Duration ttl) {
        return new StateTtlConfig(requirePositive(ttl), UpdateType.ON_CREATE_AND_WRITE);
    }

    public static StateTtlConfig afterAccess(Duration ttl) {
        return new StateTtlConfig(requirePositive(ttl), UpdateType.ON_READ_AND_WRITE);
    }

    public boolean enabled() {
        return ttl != null;
    }

    /** Time to live in milliseconds; only when {@link #enabled()}. */
    public long ttlMillis() {
        return ttl.toMillis();
    }

    public UpdateType updateType() {
        return updateType;
    }

    private static Duration requirePositive(Duration ttl) {
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("ttl must be positive, was " + ttl);
        }
        return ttl;
    }

    @Override
    public String toString() {
        return enabled() ? "ttl " + ttl + " " + updateType : "no ttl";
    }
}
