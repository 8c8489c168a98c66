package io.millrace.connector.mqtt;

import io.millrace.api.source.SourceReaderContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One persistent session of a source reader and its connection, driven by the reader's thread through
 * {@link #maintain}; the library's threads only add to the inbox and flag a lost connection.
 *
 * <pre>
 *   DISCONNECTED ──(attempt due)──► CONNECTING ──(connected and subscribed)──► CONNECTED
 *        ▲                              │ network error: wait, doubling the pause      │ connection lost
 *        └──────────────────────────────┴──────────────────────────────────────────────┘
 *   refused by the broker (credentials, authorization, a refused filter): the job fails
 * </pre>
 *
 * Every attempt uses a new client object: a message the broker sends again after a reconnect then reaches the
 * source and is acknowledged on the new connection.
 */
final class MqttSession {
    private static final Logger LOG = LoggerFactory.getLogger(MqttSession.class);

    enum State { DISCONNECTED, CONNECTING, CONNECTED }

    final MqttSessionSplit split;
    final String clientId;
    private final MqttSource<?> source;
    private final SourceReaderContext context;
    private final ConcurrentLinkedQueue<Incoming> inbox = new ConcurrentLinkedQueue<>();
    private final AtomicInteger buffered = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    private long droppedLogged;
    private final AtomicInteger lostGeneration = new AtomicInteger(-1);
    private volatile Throwable lostCause;
    private int generation;
    private State state = State.DISCONNECTED;
    private MqttConnection connection;
    private CompletableFuture<Boolean> pending;
    private long nextAttempt;
    private long backoff;
    private int failures;

    MqttSession(MqttSessionSplit split, String clientId, MqttSource<?> source, SourceReaderContext context) {
        this.split = split;
        this.clientId = clientId;
        this.source = source;
        this.context = context;
        this.backoff = source.server.reconnectInitial().toMillis();
    }

    State state() {
        return state;
    }

    /** When the next connection attempt is due, or {@link Long#MAX_VALUE} when none is waiting. */
    long nextAttemptMillis() {
        return state == State.DISCONNECTED ? nextAttempt : Long.MAX_VALUE;
    }

    /** Advances the connection's state; throws when the broker refused the session (the job fails). */
    void maintain(long now) {
        if (state == State.CONNECTED && lostGeneration.get() == generation) {
            Throwable cause = lostCause;
            LOG.warn("MQTT source '{}': client {} lost its connection to {} ({}); reconnecting", context.sourceName(), clientId,
                    source.server, cause == null ? "no reason given" : cause.toString());
            connection.close();
            state = State.DISCONNECTED;
            nextAttempt = now + backoff;
        }
        if (state == State.CONNECTING && pending.isDone()) {
            finishAttempt(now);
        }
        if (state == State.DISCONNECTED && now >= nextAttempt) {
            startAttempt();
        }
        long d = dropped.get();
        if (d > droppedLogged) {
            LOG.warn("MQTT source '{}': client {} dropped {} QoS 0 messages in all: more than {} were waiting for the job (option"
                    + " 'maxBufferedMessages')", context.sourceName(), clientId, d, source.maxBuffered);
            droppedLogged = d;
        }
    }

    private void startAttempt() {
        int gen = ++generation;
        MqttConnection c = MqttConnection.create(source.server, clientId, false, in -> receive(in),
                cause -> lost(gen, cause), context.clock());
        connection = c;
        state = State.CONNECTING;
        pending = c.connect(false).thenCompose(present -> c.subscribe(split.filters(), source.qos).thenApply(v -> present));
        pending.whenComplete((r, e) -> context.wakeUp());
    }

    private void finishAttempt(long now) {
        try {
            boolean present = pending.get();
            state = State.CONNECTED;
            LOG.info("MQTT source '{}': client {} connected to {} ({} session), subscribed to {} at QoS {}", context.sourceName(), clientId,
                    source.server, present ? "resumed" : "new", split.filters(), source.qos.level());
            failures = 0;
            backoff = source.server.reconnectInitial().toMillis();
            if (lostGeneration.get() == generation) {
                // lost again between the subscription and now: handled by the next maintain
                LOG.debug("client {} lost its connection right after connecting", clientId);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof CompletionException && e.getCause().getCause() != null ? e.getCause().getCause() : e.getCause();
            connection.close();
            if (cause instanceof MqttRefusedException refused) {
                throw new IllegalStateException("MQTT source '" + context.sourceName() + "': " + refused.getMessage(), refused);
            }
            failures++;
            state = State.DISCONNECTED;
            nextAttempt = now + backoff;
            LOG.warn("MQTT source '{}': client {} could not connect to {} (attempt {}: {}); trying again in {} ms", context.sourceName(),
                    clientId, source.server, failures, cause.toString(), backoff);
            backoff = Math.min(backoff * 2, source.server.reconnectMax().toMillis());
        }
    }

    private void receive(Incoming in) {
        if (in.acknowledge() == null && buffered.get() >= source.maxBuffered) {
            dropped.incrementAndGet();
            context.wakeUp();
            return;
        }
        buffered.incrementAndGet();
        inbox.add(in);
        context.wakeUp();
    }

    private void lost(int gen, Throwable cause) {
        lostCause = cause;
        lostGeneration.set(gen);
        context.wakeUp();
    }

    /** The next received message, or null. */
    Incoming take() {
        Incoming in = inbox.poll();
        if (in != null) {
            buffered.decrementAndGet();
        }
        return in;
    }

    boolean hasBuffered() {
        return buffered.get() > 0;
    }

    void close() {
        if (connection != null) {
            connection.close();
        }
    }
}
