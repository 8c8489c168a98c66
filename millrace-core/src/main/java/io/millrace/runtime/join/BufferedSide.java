package io.millrace.runtime.join;

import io.millrace.api.state.SortedMapState;
import io.millrace.api.state.SortedMapStateDescriptor;
import io.millrace.api.time.TimeDomain;
import io.millrace.api.time.TimerService;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.TimerCallback;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One side of an interval join: the rows of the current key by event timestamp, in sorted map keyed state (the map
 * key is the timestamp, the value the rows at that timestamp in arrival order; a probe reads only the timestamps in
 * its interval, however many rows the side holds while the other side lags behind), and an event-time cleanup timer
 * per (key, cleanup time) that removes them once no row of the other side can match them any more. Being keyed state,
 * the rows are snapshotted, restored at any parallelism and kept by either backend. Task thread only; the operator
 * sets the current key before every call.
 */
final class BufferedSide<T> implements TimerCallback {
    private final String name;
    private final SortedMapState<Long, ArrayList<T>> rows;
    private final TimerService cleanup;
    /** A row at {@code t} can still match while the watermark is below {@code t + keepFor}. */
    private final long keepFor;

    BufferedSide(OperatorContext context, String name, long keepFor) {
        this.name = name;
        this.rows = context.state().getSortedMapState(new SortedMapStateDescriptor<>("interval-join-" + name, Long.class));
        this.cleanup = context.timerService("interval-join-" + name + "-cleanup", this);
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
            cleanup.registerEventTimeTimer(cleanupAt);
        }
        list.add(value);
        rows.put(timestamp, list);
    }

    /**
     * The current key's rows with timestamps in {@code [from, to]}, ascending by timestamp: each entry is a timestamp
     * and the rows at it, which must not be changed.
     */
    Iterable<Map.Entry<Long, ArrayList<T>>> between(long from, long to) {
        return from > to ? List.of() : rows.range(from, to == Long.MAX_VALUE ? null : to + 1);
    }

    /**
     * Removes the current key's rows whose cleanup time is {@code time}: the rows at {@code time - keepFor}, and at the
     * final watermark also those whose cleanup time saturated. Each timestamp has its own timer, so a timer removes
     * exactly its rows and never scans past earlier, removed ones (on RocksDB such a scan would step over their
     * tombstones).
     */
    @Override
    public void onTimer(long time, TimeDomain domain) {
        if (domain != TimeDomain.EVENT_TIME) {
            throw new IllegalStateException("interval join registered no processing-time timer, yet one fired at " + time + " on its " + name + " side");
        }
        long timestamp = time - keepFor;
        boolean overflowed = ((time ^ keepFor) & (time ^ timestamp)) < 0;
        if (!overflowed && cleanupTime(timestamp) == time) {
            rows.remove(timestamp);
        }
        if (time == Long.MAX_VALUE && keepFor >= 0) {
            for (Map.Entry<Long, ArrayList<T>> e : rows.tailMap(Long.MAX_VALUE - keepFor)) {
                rows.remove(e.getKey());
            }
        }
    }
}
