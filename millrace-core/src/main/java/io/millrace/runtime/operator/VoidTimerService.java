package io.millrace.runtime.operator;

import io.millrace.api.time.TimerService;
import io.millrace.runtime.state.InternalTimerService;
import io.millrace.runtime.state.serde.VoidNamespace;

/** The user-facing {@link TimerService} of a process function: internal timers in the VOID namespace. */
public final class VoidTimerService implements TimerService {
    private final InternalTimerService<VoidNamespace> timers;

    public VoidTimerService(InternalTimerService<VoidNamespace> timers) {
        this.timers = timers;
    }

    @Override
    public long currentProcessingTime() {
        return timers.currentProcessingTime();
    }

    @Override
    public long currentWatermark() {
        return timers.currentWatermark();
    }

    @Override
    public void registerEventTimeTimer(long time) {
        timers.registerEventTimeTimer(VoidNamespace.INSTANCE, time);
    }

    @Override
    public void registerProcessingTimeTimer(long time) {
        timers.registerProcessingTimeTimer(VoidNamespace.INSTANCE, time);
    }

    @Override
    public void deleteEventTimeTimer(long time) {
        timers.deleteEventTimeTimer(VoidNamespace.INSTANCE, time);
    }

    @Override
    public void deleteProcessingTimeTimer(long time) {
        timers.deleteProcessingTimeTimer(VoidNamespace.INSTANCE, time);
    }
}
