package io.millrace.api.window;

import io.millrace.api.time.TimeDomain;

/**
 * Sessions per key: a record at t opens the window {@code [t, t + gap)}; windows that overlap merge
 * (their contents are combined and the trigger's {@link Trigger#onMerge} runs). A session ends once no
 * record arrived for {@code gap} ms.
 */
public final class SessionWindows extends WindowAssigner<TimeWindow> {
    private final long gap;
    private final TimeDomain domain;

    SessionWindows(long gap, TimeDomain domain) {
        if (gap <= 0) {
            throw new IllegalArgumentException("session gap must be positive, was " + gap + " ms");
        }
        this.gap = gap;
        this.domain = domain;
    }

    public long gap() {
        return gap;
    }

    @Override
    public TimeDomain timeDomain() {
        return domain;
    }

    /** The same sessions, measured with the pipeline clock at arrival instead of event timestamps. */
    public SessionWindows inProcessingTime() {
        return new SessionWindows(gap, TimeDomain.PROCESSING_TIME);
    }

    @Override
    public Trigger<Object, Window> defaultTrigger() {
        return domain == TimeDomain.EVENT_TIME ? Triggers.eventTime() : Triggers.processingTime();
    }

    @Override
    public String toString() {
        return "session(" + gap + " ms, " + domain + ")";
    }
}
