package io.millrace.runtime.operator;

import io.millrace.api.time.TimeDomain;
import io.millrace.operator.TimerCallback;
import io.millrace.runtime.state.Triggerable;
import io.millrace.runtime.state.serde.VoidNamespace;

/** Hands the timers of a timer service in the VOID namespace to an SPI {@link TimerCallback}. */
record CallbackTrigger(TimerCallback callback) implements Triggerable<VoidNamespace> {
    @Override
    public void onEventTime(long timestamp, VoidNamespace namespace) throws Exception {
        callback.onTimer(timestamp, TimeDomain.EVENT_TIME);
    }

    @Override
    public void onProcessingTime(long timestamp, VoidNamespace namespace) throws Exception {
        callback.onTimer(timestamp, TimeDomain.PROCESSING_TIME);
    }
}
