package io.millrace.api.window;

import io.millrace.api.time.TimeDomain;
import java.time.Duration;
import java.util.Objects;

/**
 * Window assigners, in event time; call {@code inProcessingTime()} on the result to place records by the
 * pipeline clock instead.
 *
 * <pre>{@code
 * readings.keyBy(Reading::sensor)
 *         .window(Windows.sliding(Duration.ofMinutes(5), Duration.ofMinutes(1)))
 *         .aggregate(new AverageTemperature());
 * }</pre>
 */
public final class Windows {
    private Windows() {}

    public static TimeWindows tumbling(Duration size) {
        return tumbling(size, Duration.ZERO);
    }

    /** Tumbling windows whose starts are shifted by {@code offset} (e.g. hours in a time zone). */
    public static TimeWindows tumbling(Duration size, Duration offset) {
        long s = millis(size, "size");
        return new TimeWindows(s, s, millis(offset, "offset"), TimeDomain.EVENT_TIME);
    }

    public static TimeWindows sliding(Duration size, Duration slide) {
        return sliding(size, slide, Duration.ZERO);
    }

    public static TimeWindows sliding(Duration size, Duration slide, Duration offset) {
        return new TimeWindows(millis(size, "size"), millis(slide, "slide"), millis(offset, "offset"), TimeDomain.EVENT_TIME);
    }

    public static SessionWindows session(Duration gap) {
        return new SessionWindows(millis(gap, "gap"), TimeDomain.EVENT_TIME);
    }

    public static GlobalWindows global() {
        return GlobalWindows.INSTANCE;
    }

    private static long millis(Duration d, String what) {
        return Objects.requireNonNull(d, what).toMillis();
    }
}
