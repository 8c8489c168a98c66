package io.millrace.rocksdb;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.InternalTimerService;
import io.millrace.runtime.state.Triggerable;
import io.millrace.runtime.state.serde.ByteReader;
import io.millrace.runtime.state.serde.ByteWriter;
import io.millrace.runtime.timer.DueTimers;

/**
 * Timers of one named timer service in one RocksDB column family: an event-time and a processing-time
 * {@link RocksTimerQueue}. Registering acts for the backend's current key. The backend drives firing,
 * which makes the timer's key current before calling the target. Task thread only.
 */
final class RocksTimerService<N> implements InternalTimerService<N>, DueTimers.Service {
    static final byte EVENT_TIME = 0;
    static final byte PROCESSING_TIME = 1;

    private final String name;
    private final RocksDbKeyedStateBackend backend;
    private final Clock clock;
    private final Triggerable<N> target;
    private final RocksTimerQueue eventTimers;
    private final RocksTimerQueue processingTimers;
    private final ByteWriter row = new ByteWriter(64);
    private final ByteReader reader = new ByteReader();
    private long watermark = Long.MIN_VALUE;

    RocksTimerService(String name, RocksDbKeyedStateBackend backend, BytesColumn column, BytesColumn byGroup, Clock clock,
            Triggerable<N> target) {
        this.name = name;
        this.backend = backend;
        this.clock = clock;
        this.target = target;
        int cacheEntries = backend.config().timerCacheEntries();
        this.eventTimers = new RocksTimerQueue(column, byGroup, EVENT_TIME, cacheEntries);
        this.processingTimers = new RocksTimerQueue(column, byGroup, PROCESSING_TIME, cacheEntries);
    }

    String name() {
        return name;
    }

    Triggerable<N> target() {
        return target;
    }

    @Override
    public long currentWatermark() {
        return watermark;
    }

    /** Called by the backend as the watermark advances, before timers fire. */
    void watermark(long watermark) {
        this.watermark = watermark;
    }

    @Override
    public long currentProcessingTime() {
        return clock.millis();
    }

    @Override
    public void registerEventTimeTimer(N namespace, long time) {
        eventTimers.add(row(EVENT_TIME, namespace, time));
    }

    @Override
    public void deleteEventTimeTimer(N namespace, long time) {
        eventTimers.remove(row(EVENT_TIME, namespace, time));
    }

    @Override
    public void registerProcessingTimeTimer(N namespace, long time) {
        processingTimers.add(row(PROCESSING_TIME, namespace, time));
    }

    @Override
    public void deleteProcessingTimeTimer(N namespace, long time) {
        processingTimers.remove(row(PROCESSING_TIME, namespace, time));
    }

    @Override
    public int size() {
        return eventTimers.size() + processingTimers.size();
    }

    @Override
    public int eventTimerCount() {
        return eventTimers.size();
    }

    @Override
    public int processingTimerCount() {
        return processingTimers.size();
    }

    /** Stores the timers registered since the last flush that are still only in the queues' heap caches. */
    void flush() {
        eventTimers.flush();
        processingTimers.flush();
    }

    /** Adds a timer row restored from a checkpoint (the key group's bytes included). */
    void restore(byte[] timerRow) {
        (timerRow[0] == EVENT_TIME ? eventTimers : processingTimers).add(timerRow);
    }

    /** Timestamp of the earliest event-time timer, Long.MAX_VALUE when none. */
    @Override
    public long nextEventTime() {
        return eventTimers.peekTimestamp();
    }

    /** Timestamp of the earliest processing-time timer, Long.MAX_VALUE when none. */
    @Override
    public long nextProcessingTime() {
        return processingTimers.peekTimestamp();
    }

    /** Removes the earliest event-time timer, makes its key current and fires it. There must be one. */
    @Override
    public void fireNextEventTimer() throws Exception {
        byte[] timer = eventTimers.poll();
        target.onEventTime(RocksTimerQueue.timestamp(timer), makeKeyCurrent(timer));
    }

    /** Removes the earliest processing-time timer, makes its key current and fires it. There must be one. */
    @Override
    public void fireNextProcessingTimer() throws Exception {
        byte[] timer = processingTimers.poll();
        target.onProcessingTime(RocksTimerQueue.timestamp(timer), makeKeyCurrent(timer));
    }

    /** Decodes a row's key and makes it current; returns the row's namespace. */
    @SuppressWarnings("unchecked")
    private N makeKeyCurrent(byte[] timer) {
        reader.reset(timer, 11, timer.length - 11);
        Object key = backend.keys.read(reader);
        N namespace = (N) backend.keys.read(reader);
        backend.setCurrentKey(key);
        return namespace;
    }

    private byte[] row(byte domain, N namespace, long time) {
        byte[] key = backend.currentKeyBytes();
        if (key == null) {
            throw new IllegalStateException("timer service '" + name
                    + "' needs a current key: timers are only available while processing a keyed record or timer");
        }
        row.reset();
        row.writeByte(domain);
        row.writeLong(time ^ Long.MIN_VALUE);
        row.write(key);
        backend.keys.write(namespace, row);
        return row.toByteArray();
    }
}
