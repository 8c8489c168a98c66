package io.millrace.verify;

/** A test record: a unique id, a key, an event time and a value to aggregate. */
record Event(int id, int key, long ts, long value) implements java.io.Serializable {

    /** Sums values and keeps the smallest id; used as a reduce function (never changes its arguments). */
    static Event sum(Event a, Event b) {
        return new Event(Math.min(a.id(), b.id()), a.key(), Math.max(a.ts(), b.ts()), a.value() + b.value());
    }
}
