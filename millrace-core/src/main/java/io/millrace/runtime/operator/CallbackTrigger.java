package io.millrace.runtime.operator;

import io.millrace.api.time.TimeDomain;
import io.millrace.operator.TimerCallback;
import io.millrace.runtime.state.Triggerable;

/**
 * Hands the timers of a timer service to an SPI {@link TimerCallback}, which sees their time and key, not their
 * namespace: the SPI's timer services register in the VOID namespace, and a timer restored with another namespace
 * under the same service name fires the callback all the same.
 */
record CallbackTrigger<N>(TimerCallback callback) implements Triggerable<N> {
    @Override
    public void onEventTime(long timestamp, N namespace) throws Exception {
        callback.onTimer(timestamp, TimeDomain.EVENT_TIME);
    }

    @Override
    public void onProcessingTime(long timestamp, N namespace) throws Exception {
        callback.onTimer(timestamp, TimeDomain.PROCESSING_TIME);
    }
}
