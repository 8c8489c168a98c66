package io.millrace.runtime.timer;

import java.util.List;

/**
 * Fires the due timers of a backend's timer services together: every timer at or before the given time, of
 * any service, in timestamp order across services (on a tie, the service that comes first in the list),
 * including timers registered while firing. Task thread only.
 */
public final class DueTimers {
    /** What firing needs of a timer service. */
    public interface Service {
        int eventTimerCount();

        /** Timestamp of the earliest event-time timer; meaningful only while there is one. */
        long nextEventTime();

        void fireNextEventTimer() throws Exception;

        int processingTimerCount();

        /** Timestamp of the earliest processing-time timer; meaningful only while there is one. */
        long nextProcessingTime();

        void fireNextProcessingTimer() throws Exception;
    }

    private DueTimers() {}

    /** The timestamp of the earliest event-time timer of any service, {@code Long.MAX_VALUE} when there is none. */
    public static long nextEventTime(List<? extends Service> services) {
        long next = Long.MAX_VALUE;
        for (int i = 0; i < services.size(); i++) {
            Service s = services.get(i);
            if (s.eventTimerCount() > 0) {
                next = Math.min(next, s.nextEventTime());
            }
        }
        return next;
    }

    /** Fires every event-time timer at or before {@code watermark}. */
    public static void fireEventTime(List<? extends Service> services, long watermark) throws Exception {
        fire(services, watermark, true);
    }

    /** Fires every processing-time timer at or before {@code now}. */
    public static void fireProcessingTime(List<? extends Service> services, long now) throws Exception {
        fire(services, now, false);
    }

    private static void fire(List<? extends Service> services, long upTo, boolean eventTime) throws Exception {
        while (true) {
            Service next = null;
            long earliest = upTo;
            for (int i = 0; i < services.size(); i++) {
                Service s = services.get(i);
                if ((eventTime ? s.eventTimerCount() : s.processingTimerCount()) == 0) {
                    continue;
                }
                long t = eventTime ? s.nextEventTime() : s.nextProcessingTime();
                if (t <= earliest && (next == null || t < earliest)) {
                    next = s;
                    earliest = t;
                }
            }
            if (next == null) {
                return;
            }
            if (eventTime) {
                next.fireNextEventTimer();
            } else {
                next.fireNextProcessingTimer();
            }
        }
    }
}
