package io.millrace.api.time;

import java.time.Duration;

/** A clock that moves only when told to; safe to advance from a test thread while tasks read it. */
public final class ManualClock implements Clock {
    private volatile long millis;

    public ManualClock(long startMillis) {
        this.millis = startMillis;
    }

    @Override
    public long millis() {
        return millis;
    }

    @Override
    public long nanoTime() {
        return millis * 1_000_000L;
    }

    public synchronized void advance(Duration d) {
        millis += d.toMillis();
    }

    public synchronized void set(long newMillis) {
        if (newMillis < millis) {
            throw new IllegalArgumentException("clock cannot go back: " + newMillis + " < " + millis);
        }
        millis = newMillis;
    }
}
