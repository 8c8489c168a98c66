package io.millrace.connector.mqtt;

import io.millrace.api.sink.CommittingSinkWriter;
import io.millrace.api.sink.SinkContext;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes one sink subtask's records over one connection; the library reconnects with backoff, resuming the session
 * so that the messages in flight are sent again. Each run starts a clean session: a new client has no record of the
 * packet ids an earlier, killed run had in flight, and a QoS 2 message published under such an id could be taken by
 * the broker for a repeat. At most {@code maxInFlight} messages are
 * unacknowledged; {@link #prepareCommit} waits until none is, so a completed checkpoint never covers a message the
 * broker does not have. Called on the sink subtask's thread only; acknowledgements arrive on the library's threads.
 */
final class MqttSinkWriter<T> implements CommittingSinkWriter<T, String> {
    private static final Logger LOG = LoggerFactory.getLogger(MqttSinkWriter.class);
    private final MqttSink<T> sink;
    private final String clientId;
    private final SinkContext context;
    private final MqttConnection connection;
    private final Semaphore window;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean closing;

    MqttSinkWriter(MqttSink<T> sink, String clientId, SinkContext context) throws Exception {
        this.sink = sink;
        this.clientId = clientId;
        this.context = context;
        this.window = new Semaphore(sink.maxInFlight);
        this.connection = MqttConnection.create(sink.server, clientId, true, null,
                cause -> {
                    if (!closing) {
                        LOG.warn("MQTT sink '{}': client {} lost its connection to {} ({}); reconnecting", context.sinkName(), clientId,
                                sink.server, cause == null ? "no reason given" : cause.toString());
                    }
                }, context.clock());
        try {
            connection.connect(true).get(sink.ackTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            connection.close();
            throw new IllegalStateException("MQTT sink '" + context.sinkName() + "': client " + clientId + " could not connect to " + sink.server
                    + ": " + e.getCause().getMessage(), e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            connection.close();
            throw new IllegalStateException("MQTT sink '" + context.sinkName() + "': client " + clientId + " could not connect to " + sink.server
                    + " within " + sink.ackTimeout.toMillis() + " ms");
        }
    }

    @Override
    public void write(T value, long timestamp) throws Exception {
        throwIfFailed();
        String topic = sink.topic.topic(value);
        MqttSink.checkTopic(topic);
        byte[] payload = sink.payload.encode(value);
        List<MqttMessage.UserProperty> props = sink.messageId == null ? List.of()
                : List.of(new MqttMessage.UserProperty(sink.messageIdProperty, sink.messageId.id(value, timestamp)));
        if (!window.tryAcquire(sink.ackTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("MQTT sink '" + context.sinkName() + "': the broker " + sink.server + " acknowledged none of "
                    + sink.maxInFlight + " messages in " + sink.ackTimeout.toMillis() + " ms (option 'ackTimeout')");
        }
        connection.publish(topic, payload, sink.qos, sink.retained, props).whenComplete((v, e) -> {
            if (e != null) {
                failure.compareAndSet(null, e);
            }
            window.release();
        });
    }

    private void throwIfFailed() {
        Throwable t = failure.get();
        if (t != null) {
            throw new IllegalStateException("MQTT sink '" + context.sinkName() + "': publishing to " + sink.server + " failed: " + t, t);
        }
    }

    /** Waits until the broker has acknowledged every message published so far. */
    private void awaitAcknowledged() throws InterruptedException {
        if (!window.tryAcquire(sink.maxInFlight, sink.ackTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("MQTT sink '" + context.sinkName() + "': " + (sink.maxInFlight - window.availablePermits())
                    + " messages were not acknowledged by " + sink.server + " within " + sink.ackTimeout.toMillis() + " ms (option 'ackTimeout')");
        }
        window.release(sink.maxInFlight);
        throwIfFailed();
    }

    @Override
    public void flush(boolean endOfInput) throws Exception {
        if (endOfInput) {
            awaitAcknowledged();
        }
        throwIfFailed();
    }

    @Override
    public List<String> prepareCommit(long checkpointId) throws Exception {
        awaitAcknowledged();
        return List.of();
    }

    @Override
    public void close() {
        closing = true;
        connection.close();
    }
}
