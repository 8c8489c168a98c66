package io.millrace.bench.workload;

/**
 * A query's input as a function of a source's sequence number (see {@link Interleave}): the record and its event
 * time. Each call of {@link #record} tells the {@link Probe} an event was created. Serializable: engines ship it to
 * their source subtasks.
 */
public final class Input implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private final Interleave order;
    private final Nexmark nexmark;
    private final Telemetry telemetry;

    public Input(Query query, long count, int parallelism, long seed, long eventRate) {
        this.order = new Interleave(count, parallelism);
        this.nexmark = query.isNexmark() ? new Nexmark(seed, BenchOptions.BASE_TIME, eventRate) : null;
        this.telemetry = query.isNexmark() ? null : new Telemetry(query.telemetry, seed, BenchOptions.BASE_TIME, eventRate);
    }

    public long count() {
        return order.count();
    }

    /** The record at sequence number {@code s}: an {@link Event} (Nexmark) or a {@link Reading} (telemetry). */
    public Object record(long s) {
        long i = order.eventIndex(s);
        if (nexmark != null) {
            long time = nexmark.timestamp(i);
            Probe.onCreate(time);
            return nexmark.event(i, time);
        }
        long nominal = telemetry.nominalTime(i);
        Probe.onCreate(nominal);
        return telemetry.reading(i, nominal);
    }

    /** The event time a record of {@link #record} carries, ms. */
    public static long eventTime(Object record) {
        return record instanceof Event e ? e.dateTime() : ((Reading) record).time();
    }

    /** Event time of the last event (before delays), ms. */
    public long lastEventTime() {
        long i = order.count() - 1;
        return nexmark != null ? nexmark.timestamp(i) : telemetry.nominalTime(i);
    }
}
