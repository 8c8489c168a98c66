package io.millrace.connector.opcua;

import java.time.Instant;
import java.util.Objects;

/**
 * A time in which the source could not see the server's changes, reported once the source has subscribed again.
 * OPC UA subscriptions are not replayable: whatever changed between {@code from} and {@code to} and was overwritten
 * before the new subscription sampled it is lost; the first value of every variable after {@code to} is delivered.
 *
 * @param endpoint the endpoint URL of the server
 * @param from the last time the source heard from the old subscription (a value or a keep-alive): changes after it
 *     may be lost
 * @param to when the new subscription's monitored items were created: changes from then on are delivered
 * @param nodes how many variables the gap concerns (all the source monitors)
 * @param nodesNotResubscribed of those, how many could not be monitored again (the server refused them, e.g. the
 *     node no longer exists); they stay unmonitored until the next re-subscription
 * @param cause why the subscription was lost, e.g. {@code Bad_SubscriptionIdInvalid} from the failed transfer to a
 *     new session after a server restart
 * @param gapsSoFar how many gaps this source subtask has reported since it started, this one included
 * @param eventTime the highest event time of the changes delivered before the gap (the devices' clock, which need not
 *     be the gateway's), or {@code to} when there were none: so a gap never moves the watermark past the data
 */
public record OpcUaGap(String endpoint, Instant from, Instant to, int nodes, int nodesNotResubscribed, String cause, long gapsSoFar,
        long eventTime) implements OpcUaRecord {
    public OpcUaGap {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(cause, "cause");
    }

    /** The gap's length in milliseconds. */
    public long millis() {
        return Math.max(0, to.toEpochMilli() - from.toEpochMilli());
    }

}
