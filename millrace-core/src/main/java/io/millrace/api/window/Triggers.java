package io.millrace.api.window;

import java.time.Duration;
import java.util.Objects;

/**
 * The built-in triggers. Event-time windows fire with {@link #eventTime()} by default, processing-time
 * windows with {@link #processingTime()}. Write a custom trigger by extending {@link Trigger}.
 */
public final class Triggers {
    private Triggers() {}

    /** Fires when the watermark passes the window's end, and again for each late record within the allowed lateness. */
    public static Trigger<Object, Window> eventTime() {
        return EventTimeTrigger.INSTANCE;
    }

    /** Fires when the pipeline clock passes the window's end. */
    public static Trigger<Object, Window> processingTime() {
        return ProcessingTimeTrigger.INSTANCE;
    }

    /** Fires every {@code count} records of the window (keeps the contents: wrap in {@link #purging} to restart). */
    public static Trigger<Object, Window> count(long count) {
        return new CountTrigger(count);
    }

    /** Fires every {@code interval} of event time while the window is open (early results), and at its end. */
    public static Trigger<Object, Window> continuousEventTime(Duration interval) {
        return new ContinuousTrigger(millis(interval), true);
    }

    /** Fires every {@code interval} of processing time (aligned to multiples of it) from the window's first record until it expires. */
    public static Trigger<Object, Window> continuousProcessingTime(Duration interval) {
        return new ContinuousTrigger(millis(interval), false);
    }

    /** Turns every firing of {@code trigger} into a fire-and-purge: each result covers only the records since the last one. */
    public static <T, W extends Window> Trigger<T, W> purging(Trigger<T, W> trigger) {
        return new PurgingTrigger<>(Objects.requireNonNull(trigger, "trigger"));
    }

    /** Never fires; the default of global and count windows. */
    public static Trigger<Object, Window> never() {
        return NeverTrigger.INSTANCE;
    }

    private static long millis(Duration interval) {
        long ms = Objects.requireNonNull(interval, "interval").toMillis();
        if (ms <= 0) {
            throw new IllegalArgumentException("trigger interval must be positive, was " + interval);
        }
        return ms;
    }
}
