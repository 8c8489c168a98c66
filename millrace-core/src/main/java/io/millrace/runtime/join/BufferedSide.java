package io.millrace.runtime.join;

import io.millrace.api.state.SortedMapState;
import io.millrace.api.state.SortedMapStateDescriptor;
import io.millrace.runtime.state.InternalTimerService;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.Triggerable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One side of an interval join: the rows of the current key by event timestamp, in sorted map keyed state (the map
 * key is the timestamp, the value the rows at that timestamp in arrival order; a probe reads only the timestamps in
 * its interval, however many rows the side holds while the other side lags behind), and an event-time cleanup
 * timer per (key, timestamp) that removes them once no row of the other side can match them any more. Being keyed
 * state, the rows are snapshotted, restored at any parallelism and kept by either backend. Task thread only; the
 * operator sets the current key before every call.
 */
final class BufferedSide<T> implements Triggerable<Long> {
    private final SortedMapState<Long, ArrayList<T>> rows;
    private final InternalTimerService<Long> cleanup;
    /** A row at {@code t} can still match while the watermark is below {@code t + keepFor}. */
    private final long keepFor;
    private final Matches<T> matches = new Matches<>();

    /** The rows of one side with timestamps in a range, as collected by {@link #collectBetween}; reused. */
    static final class Matches<T> {
        final List<Long> timestamps = new ArrayList<>();
        final List<ArrayList<T>> rows = new ArrayList<>();

        int size() {
            return timestamps.size();
        }

        void clear() {
            timestamps.clear();
            rows.clear();
        }
    }

    BufferedSide(KeyedStateBackend backend, String name, long keepFor) {
        this.rows = backend.stateStore().getSortedMapState(new SortedMapStateDescriptor<>("interval-join-" + name, Long.class));
        this.cleanup = backend.timerService("interval-join-" + name + "-cleanup", this);
        this.keepFor = keepFor;
    }

    /** The watermark at which the rows at {@code timestamp} are removed. */
    long cleanupTime(long timestamp) {
        return Bounds.plus(timestamp, keepFor);
    }

    /**
     * Keeps {@code value} for the current key unless the watermark has already reached its cleanup time (then no
     * later row of the other side can match it).
     */
    void add(T value, long timestamp, long watermark) {
        long cleanupAt = cleanupTime(timestamp);
        if (cleanupAt <= watermark) {
            return;
        }
        ArrayList<T> list = rows.get(timestamp);
        if (list == null) {
            list = new ArrayList<>(2);
            cleanup.registerEventTimeTimer(timestamp, cleanupAt);
        }
        list.add(value);
        rows.put(timestamp, list);
    }

    /**
     * The current key's rows with timestamps in {@code [from, to]}, valid until the next call; the lists must not be
     * changed.
     */
    Matches<T> collectBetween(long from, long to) {
        matches.clear();
        if (from > to) {
            return matches;
        }
        for (Map.Entry<Long, ArrayList<T>> e : rows.range(from, to == Long.MAX_VALUE ? null : to + 1)) {
            matches.timestamps.add(e.getKey());
            matches.rows.add(e.getValue());
        }
        return matches;
    }

    @Override
    public void onEventTime(long time, Long timestamp) {
        rows.remove(timestamp);
    }

    /** Never called: the join registers event-time timers only. */
    @Override
    public void onProcessingTime(long time, Long timestamp) {
        throw new IllegalStateException("interval join registered no processing-time timer, yet one fired at " + time);
    }
}
