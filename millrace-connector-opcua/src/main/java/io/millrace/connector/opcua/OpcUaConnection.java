package io.millrace.connector.opcua;

import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import io.millrace.api.source.BadRecord;
import io.millrace.api.source.SourceReaderContext;
import io.millrace.api.time.Clock;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.SessionActivityListener;
import org.eclipse.milo.opcua.sdk.client.UaSession;
import org.eclipse.milo.opcua.sdk.client.subscriptions.MonitoredItemServiceOperationResult;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One source subtask's connection: a client session, one subscription with a monitored item per variable, and the
 * hand-off of what the server publishes to the subtask's thread.
 *
 * <p>Threads: {@link #open} and {@link #poll} run on the subtask's thread; Milo's delivery threads call the
 * subscription listener, which turns notifications into records and puts them into a bounded queue (blocking when it
 * is full, which holds back Milo's next publish request); re-subscribing after the subscription was lost runs on this
 * connection's own scheduler thread. While it re-subscribes, the changes of the new subscription are held back and
 * queued after the {@link OpcUaGap} that reports the loss, so that the gap comes before the first values after it.
 *
 * <p>The client reconnects by itself (Milo's session state machine: back-off from 1 s to 16 s) and tries to transfer
 * the subscription to its new session. When that fails (the server restarted and forgot it) or the server says the
 * subscription timed out, the subscription is created anew here, retried with back-off until it succeeds or the
 * connection is closed.
 */
final class OpcUaConnection implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OpcUaConnection.class);

    private final OpcUaOptions options;
    private final String sourceName;
    private final Clock clock;
    private final SourceReaderContext context;
    private final BlockingQueue<Object> queue;
    private final ScheduledExecutorService scheduler;
    private final Object deliveryLock = new Object();
    private final AtomicBoolean resubscribing = new AtomicBoolean();
    private volatile OpcUaClient client;
    private volatile OpcUaSubscription subscription;
    private volatile int nodeCount;
    private volatile boolean closed;
    private volatile long lastHeardMillis;
    /** The highest event time of the changes delivered so far, for the gaps' event time. */
    private volatile long maxEventTime = Long.MIN_VALUE;
    /** Guarded by {@link #deliveryLock}: non-null while re-subscribing. */
    private List<Object> heldBack;
    private long gaps;

    private OpcUaConnection(OpcUaOptions options, SourceReaderContext context) {
        this.options = options;
        this.context = context;
        this.sourceName = context.sourceName();
        this.clock = context.clock();
        this.queue = new ArrayBlockingQueue<>(options.maxBufferedChanges());
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "opcua-resubscribe-" + sourceName);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Connects, finds the variables and subscribes to them; fails naming the endpoint, the security policy and the
     * identity when the server cannot be reached or refuses the connection, and naming the node when a variable
     * cannot be monitored.
     */
    static OpcUaConnection open(OpcUaOptions options, SourceReaderContext context) throws Exception {
        OpcUaConnection c = new OpcUaConnection(options, context);
        try {
            c.client = OpcUaClients.connect(options, c.sourceName);
            List<OpcUaNodes.Node> nodes = OpcUaNodes.resolve(c.client, options, c.sourceName);
            c.subscribe(nodes);
            c.client.addSessionActivityListener(c.new SessionWatch());
            return c;
        } catch (Exception e) {
            c.close();
            throw e;
        }
    }

    private void subscribe(List<OpcUaNodes.Node> nodes) throws UaException {
        subscription = new OpcUaSubscription(client, options.publishingIntervalMillis());
        subscription.setSubscriptionListener(new Listener());
        subscription.create();
        List<OpcUaMonitoredItem> items = new ArrayList<>(nodes.size());
        for (OpcUaNodes.Node n : nodes) {
            OpcUaMonitoredItem item = OpcUaMonitoredItem.newDataItem(n.id());
            item.setSamplingInterval(options.samplingIntervalMillis());
            item.setQueueSize(uint(options.queueSize()));
            item.setDiscardOldest(options.discardOldest());
            item.setUserObject(n);
            items.add(item);
        }
        nodeCount = items.size();
        lastHeardMillis = clock.millis();
        subscription.addMonitoredItems(items);
        List<String> refused = new ArrayList<>();
        for (MonitoredItemServiceOperationResult r : subscription.createMonitoredItems()) {
            if (!r.isGood()) {
                StatusCode status = r.operationResult().filter(s -> !s.isGood()).orElse(r.serviceResult());
                refused.add(((OpcUaNodes.Node) r.monitoredItem().getUserObject().orElseThrow()).text() + ": "
                        + OpcUaValues.statusName(status.value()));
            }
        }
        if (!refused.isEmpty()) {
            throw new IllegalStateException("OPC UA source '" + sourceName + "': the server at " + options.endpoint()
                    + " refused to monitor " + String.join(", ", refused));
        }
    }

    /** Takes up to {@code max} queued elements: {@link OpcUaRecord}s and {@link BadRecord}s. */
    int poll(List<Object> into, int max) {
        return queue.drainTo(into, max);
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    int nodeCount() {
        return nodeCount;
    }

    /** Puts elements into the queue in order, waiting while it is full (unless closed) or holding them back while re-subscribing. */
    private void deliver(List<Object> elements) {
        synchronized (deliveryLock) {
            if (heldBack != null) {
                heldBack.addAll(elements);
                return;
            }
            enqueue(elements);
        }
    }

    private void enqueue(List<Object> elements) {
        try {
            for (Object e : elements) {
                while (!queue.offer(e, 100, TimeUnit.MILLISECONDS)) {
                    context.wakeUp();
                    if (closed) {
                        return;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        context.wakeUp();
    }

    private Object toRecord(OpcUaNodes.Node node, DataValue dv) {
        Instant source = instant(dv.getSourceTime());
        Instant server = instant(dv.getServerTime());
        long eventTime = source != null ? source.toEpochMilli() : server != null ? server.toEpochMilli() : clock.millis();
        Object raw = dv.getValue().value();
        Object value;
        try {
            value = OpcUaValues.toJava(raw);
        } catch (IllegalArgumentException e) {
            return new BadRecord(String.valueOf(raw).getBytes(StandardCharsets.UTF_8), "node " + node.text() + " at " + options.endpoint(),
                    e.getMessage());
        }
        if (eventTime > maxEventTime) {
            maxEventTime = eventTime;
        }
        return new OpcUaDataChange(node.text(), node.browseName(), node.displayName(), value, OpcUaValues.typeName(dv.getValue()), source,
                server, dv.getStatusCode().value(), eventTime);
    }

    private static Instant instant(DateTime t) {
        return t == null || t.isNull() ? null : t.getJavaInstant();
    }

    /** The subscription is gone on the server: subscribe again (once at a time), then report the gap. */
    private void subscriptionLost(String cause) {
        if (closed || !resubscribing.compareAndSet(false, true)) {
            return;
        }
        long from = lastHeardMillis;
        long eventTime = maxEventTime;
        synchronized (deliveryLock) {
            heldBack = new ArrayList<>();
        }
        LOG.warn("OPC UA source '{}': the subscription at {} was lost ({}); subscribing again", sourceName, options.endpoint(), cause);
        try {
            scheduler.execute(() -> resubscribe(from, eventTime, cause, 1));
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            // closed meanwhile: nothing to subscribe again
        }
    }

    private void resubscribe(long from, long eventTime, String cause, int attempt) {
        if (closed) {
            return;
        }
        int notResubscribed;
        try {
            if (subscription.getSyncState() != OpcUaSubscription.SyncState.INITIAL) {
                subscription.reset();
            }
            subscription.create();
            notResubscribed = 0;
            for (MonitoredItemServiceOperationResult r : subscription.createMonitoredItems()) {
                if (!r.serviceResult().isGood()) {
                    throw new UaException(r.serviceResult(), "creating the monitored items failed");
                }
                if (!r.isGood()) {
                    notResubscribed++;
                    LOG.warn("OPC UA source '{}': node {} could not be monitored again: {}", sourceName,
                            r.monitoredItem().getReadValueId().getNodeId().toParseableString(),
                            OpcUaValues.statusName(r.operationResult().orElse(r.serviceResult()).value()));
                }
            }
        } catch (UaException | RuntimeException e) {
            long delay = Math.min(10_000, 500L << Math.min(attempt, 5));
            LOG.info("OPC UA source '{}': subscribing again at {} failed ({}); next attempt in {} ms", sourceName, options.endpoint(),
                    e.getMessage(), delay);
            subscription.reset();
            try {
                scheduler.schedule(() -> resubscribe(from, eventTime, cause, attempt + 1), delay, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                // closed meanwhile: nothing to subscribe again
            }
            return;
        }
        long to = clock.millis();
        lastHeardMillis = to;
        List<Object> first = new ArrayList<>();
        synchronized (deliveryLock) {
            gaps++;
            OpcUaGap gap = new OpcUaGap(options.endpoint(), Instant.ofEpochMilli(from), Instant.ofEpochMilli(to), nodeCount, notResubscribed,
                    cause, gaps, eventTime == Long.MIN_VALUE ? to : eventTime);
            LOG.warn("OPC UA source '{}': subscribed again at {}; changes from {} to {} of {} variables may be lost{}", sourceName,
                    options.endpoint(), gap.from(), gap.to(), nodeCount, notResubscribed == 0 ? "" : ", " + notResubscribed + " not monitored");
            first.add(gap);
            first.addAll(heldBack);
            heldBack = null;
            resubscribing.set(false);
            enqueue(first);
        }
    }

    @Override
    public void close() {
        closed = true;
        scheduler.shutdownNow();
        if (client != null) {
            try {
                client.disconnectAsync().get(options.requestTimeoutMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                LOG.debug("OPC UA source '{}': disconnecting from {} failed: {}", sourceName, options.endpoint(), e.toString());
            }
        }
    }

    /** Milo's callbacks for the subscription; called on its delivery threads. */
    private final class Listener implements OpcUaSubscription.SubscriptionListener {
        @Override
        public void onDataReceived(OpcUaSubscription s, List<OpcUaMonitoredItem> items, List<DataValue> values) {
            lastHeardMillis = clock.millis();
            List<Object> records = new ArrayList<>(items.size());
            for (int i = 0; i < items.size(); i++) {
                Object node = items.get(i).getUserObject().orElse(null);
                if (node instanceof OpcUaNodes.Node n) {
                    records.add(toRecord(n, values.get(i)));
                }
            }
            deliver(records);
        }

        @Override
        public void onKeepAliveReceived(OpcUaSubscription s) {
            lastHeardMillis = clock.millis();
        }

        @Override
        public void onTransferFailed(OpcUaSubscription s, StatusCode status) {
            subscriptionLost(OpcUaValues.statusName(status.value()) + ": the subscription could not be moved to the client's new session");
        }

        @Override
        public void onStatusChanged(OpcUaSubscription s, StatusCode status) {
            if (status.value() == StatusCodes.Bad_Timeout) {
                subscriptionLost("Bad_Timeout: the server dropped the subscription");
            }
        }

        @Override
        public void onNotificationDataLost(OpcUaSubscription s) {
            long from = lastHeardMillis;
            long to = clock.millis();
            long eventTime = maxEventTime;
            synchronized (deliveryLock) {
                gaps++;
                OpcUaGap gap = new OpcUaGap(options.endpoint(), Instant.ofEpochMilli(from), Instant.ofEpochMilli(to), nodeCount, 0,
                        "Bad_MessageNotAvailable: the server could not send notifications again that the client missed", gaps,
                        eventTime == Long.MIN_VALUE ? to : eventTime);
                if (heldBack != null) {
                    heldBack.add(gap);
                } else {
                    enqueue(List.of(gap));
                }
            }
        }
    }

    /** Logs when the session goes away and comes back; the subscription listener handles what was lost. */
    private final class SessionWatch implements SessionActivityListener {
        @Override
        public void onSessionInactive(UaSession session) {
            if (!closed) {
                LOG.warn("OPC UA source '{}': the session with {} is inactive; reconnecting", sourceName, options.endpoint());
            }
        }

        @Override
        public void onSessionActive(UaSession session) {
            LOG.info("OPC UA source '{}': session with {} active", sourceName, options.endpoint());
        }
    }
}
