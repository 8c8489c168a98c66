package io.millrace.sql.exec;

import io.millrace.api.window.TimeWindows;
import io.millrace.api.window.Windows;
import java.time.Duration;

/** The window of a TUMBLE or HOP table function, in milliseconds, over the event-time column {@code timeColumn}. */
public record WindowSpec(boolean tumbling, long size, long slide, long offset, int timeColumn, String timeColumnName) {
    /** The core window assigner: tumbling or sliding event-time windows, computed from shared slices. */
    public TimeWindows assigner() {
        return tumbling ? Windows.tumbling(Duration.ofMillis(size), Duration.ofMillis(offset))
                : Windows.sliding(Duration.ofMillis(size), Duration.ofMillis(slide), Duration.ofMillis(offset));
    }

    @Override
    public String toString() {
        return tumbling ? "TUMBLE(" + timeColumnName + ", size=" + Duration.ofMillis(size) + ")"
                : "HOP(" + timeColumnName + ", slide=" + Duration.ofMillis(slide) + ", size=" + Duration.ofMillis(size) + ")";
    }
}
