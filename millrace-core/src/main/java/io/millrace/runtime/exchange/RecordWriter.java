package io.millrace.runtime.exchange;

import io.millrace.api.functions.KeySelector;
import io.millrace.api.plan.Partitioning;
import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroups;
import java.util.function.BooleanSupplier;

/**
 * The producer side of one edge for one producer subtask: routes each record to one channel (or all,
 * for broadcast), fills a batch per channel, and hands full batches over. Control elements flush the
 * partial batches first so they stay in order with the records. Used by the task thread only.
 */
public final class RecordWriter {
    private final Channel[] channels;
    private final RecordBatch[] open;
    private final Partitioning partitioning;
    private final KeySelector<Object, Object> keySelector;
    private final int maxParallelism;
    private final int producerSubtask;
    private final BooleanSupplier cancelled;
    private final Clock clock;
    private final String edgeName;
    private int nextRoundRobin;
    private long backpressuredNanos;
    private volatile long blockedCount;

    public RecordWriter(
            String edgeName,
            Channel[] channels,
            Partitioning partitioning,
            KeySelector<Object, Object> keySelector,
            int maxParallelism,
            int producerSubtask,
            BooleanSupplier cancelled,
            Clock clock) {
        this.edgeName = edgeName;
        this.channels = channels;
        this.open = new RecordBatch[channels.length];
        this.partitioning = partitioning;
        this.keySelector = keySelector;
        this.maxParallelism = maxParallelism;
        this.producerSubtask = producerSubtask;
        this.cancelled = cancelled;
        this.clock = clock;
        this.nextRoundRobin = producerSubtask % channels.length;
    }

    public void emit(Object value, long timestamp) {
        switch (partitioning) {
            case FORWARD -> append(0, value, timestamp);
            case HASH -> appendKeyed(value, timestamp);
            case BROADCAST -> {
                for (int i = 0; i < channels.length; i++) {
                    append(i, value, timestamp);
                }
            }
            default -> {
                int c = nextRoundRobin;
                if (append(c, value, timestamp)) {
                    // move on per full batch: records cross threads in whole batches
                    nextRoundRobin = c + 1 == channels.length ? 0 : c + 1;
                }
            }
        }
    }

    /** Routes by key group, and keeps key and group with the record so the consumer need not compute them again. */
    private void appendKeyed(Object value, long timestamp) {
        Object key;
        try {
            key = keySelector.getKey(value);
        } catch (Exception e) {
            throw new KeyExtractionException("the key selector of " + edgeName + " failed on record " + describe(value), e);
        }
        if (key == null) {
            throw new KeyExtractionException("the key selector of " + edgeName + " returned null for record " + describe(value), null);
        }
        int keyGroup = KeyGroups.keyGroupFor(key, maxParallelism);
        int c = KeyGroups.subtaskFor(keyGroup, maxParallelism, channels.length);
        RecordBatch b = open[c];
        if (b == null) {
            b = channels[c].newBatch();
            open[c] = b;
        }
        if (b.addKeyed(value, timestamp, key, keyGroup)) {
            open[c] = null;
            send(c, b);
        }
    }

    /** Returns true when the batch was full and got sent. */
    private boolean append(int c, Object value, long timestamp) {
        RecordBatch b = open[c];
        if (b == null) {
            b = channels[c].newBatch();
            open[c] = b;
        }
        if (b.add(value, timestamp)) {
            open[c] = null;
            send(c, b);
            return true;
        }
        return false;
    }

    private void send(int c, Object element) {
        if (!channels[c].writable()) {
            blockedCount++;
        }
        long waited = channels[c].put(element, cancelled, clock);
        if (waited > 0) {
            backpressuredNanos += waited;
        } else if (waited < 0) {
            throw new TaskCancelledException();
        }
    }

    /** Sends every partial batch now. */
    public void flush() {
        for (int c = 0; c < channels.length; c++) {
            RecordBatch b = open[c];
            if (b != null) {
                open[c] = null;
                send(c, b);
            }
        }
    }

    /** Flushes, then sends the element to every channel. */
    public void broadcastControl(ControlElement element) {
        flush();
        for (int c = 0; c < channels.length; c++) {
            send(c, element);
        }
    }

    /** Parks until a full channel of this writer has room (or {@code maxNanos} pass); returns at once if none is full. */
    public void awaitWritable(long maxNanos) {
        for (Channel ch : channels) {
            if (!ch.writable()) {
                ch.awaitWritable(maxNanos);
                return;
            }
        }
    }

    /** Whether every channel can take a batch without blocking. */
    public boolean writable() {
        for (Channel ch : channels) {
            if (!ch.writable()) {
                return false;
            }
        }
        return true;
    }

    /** How many times the producer found a channel full and had to wait. */
    public long blockedCount() {
        return blockedCount;
    }

    public long backpressuredNanos() {
        return backpressuredNanos;
    }

    public Channel[] channels() {
        return channels;
    }

    static String describe(Object value) {
        String s = String.valueOf(value);
        return s.length() > 200 ? s.substring(0, 200) + "…" : s;
    }
}
