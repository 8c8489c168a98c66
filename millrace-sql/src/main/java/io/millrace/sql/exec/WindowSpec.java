package io.millrace.sql.exec;

import io.millrace.api.window.SessionWindows;
import io.millrace.api.window.TimeWindows;
import io.millrace.api.window.WindowAssigner;
import io.millrace.api.window.Windows;
import io.millrace.api.window.TimeWindow;
import java.time.Duration;
import java.util.List;

/**
 * The window of a window table function, in milliseconds, over the event-time column {@code timeColumn}:
 * <ul>
 *   <li>{@code TUMBLE}: {@code size == slide};</li>
 *   <li>{@code HOP}: windows of {@code size} every {@code slide};</li>
 *   <li>{@code CUMULATE}: windows {@code [start, start + k·slide)} for {@code k = 1 .. size/slide}, {@code start} a
 *   multiple of {@code size} (plus the offset);</li>
 *   <li>{@code SESSION}: runs of rows less than {@code size} (the gap) apart, per value of the {@code partitionKeys}
 *   columns.</li>
 * </ul>
 */
public record WindowSpec(Kind kind, long size, long slide, long offset, int timeColumn, String timeColumnName, List<Integer> partitionKeys,
        List<String> partitionKeyNames) {
    /** The window table functions. */
    public enum Kind {
        TUMBLE, HOP, CUMULATE, SESSION
    }

    /**
     * The core window assigner: tumbling or sliding event-time windows computed from shared slices, the tumbling
     * windows of {@code size} that hold the cumulative windows (fired at each step by {@link
     * io.millrace.sql.runtime.CumulateTrigger}), or session windows.
     */
    public WindowAssigner<TimeWindow> assigner() {
        return switch (kind) {
            case TUMBLE -> Windows.tumbling(Duration.ofMillis(size), Duration.ofMillis(offset));
            case HOP -> Windows.sliding(Duration.ofMillis(size), Duration.ofMillis(slide), Duration.ofMillis(offset));
            case CUMULATE -> Windows.tumbling(Duration.ofMillis(size), Duration.ofMillis(offset));
            case SESSION -> Windows.session(Duration.ofMillis(size));
        };
    }

    /** The assigner as the core's time windows (not for SESSION). */
    public TimeWindows timeWindows() {
        return (TimeWindows) assigner();
    }

    /** The assigner as the core's session windows (SESSION only). */
    public SessionWindows sessionWindows() {
        return (SessionWindows) assigner();
    }

    @Override
    public String toString() {
        return switch (kind) {
            case TUMBLE -> "TUMBLE(" + timeColumnName + ", size=" + Duration.ofMillis(size) + ")";
            case HOP -> "HOP(" + timeColumnName + ", slide=" + Duration.ofMillis(slide) + ", size=" + Duration.ofMillis(size) + ")";
            case CUMULATE -> "CUMULATE(" + timeColumnName + ", step=" + Duration.ofMillis(slide) + ", size=" + Duration.ofMillis(size) + ")";
            case SESSION -> "SESSION(" + timeColumnName + (partitionKeyNames.isEmpty() ? "" : ", partitionBy=[" + String.join(", ", partitionKeyNames) + "]")
                    + ", gap=" + Duration.ofMillis(size) + ")";
        };
    }
}
