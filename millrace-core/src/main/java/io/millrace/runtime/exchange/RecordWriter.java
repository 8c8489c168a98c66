package io.millrace.runtime.exchange;

import io.millrace.api.functions.KeySelector;
import io.millrace.api.plan.Partitioning;
import io.millrace.api.time.Clock;
import io.millrace.operator.TaskCancelledException;
import io.millrace.runtime.state.KeyGroups;
import java.util.function.BooleanSupplier;

/**
 * The producer side of one edge for one producer subtask: routes each record to one channel (or all,
 * for broadcast), fills a batch per channel, and hands full batches over. Control elements flush the
 * partial batches first so they stay in order with the records. Used by the task thread only.
 *
 * <p>Watermarks are coalesced ({@link #emitWatermark}): sending one means sending every partial batch and
 * waking every consumer, so a source that moves its watermark after each poll would otherwise hand over
 * small batches and wake its consumers several times per batch of records. A watermark held back goes out
 * at the latest after the watermark interval, after a few full batches per channel, at the next
 * {@link #flush}, with the partial batches a task sends when it runs dry ({@link #flushBeforeWaiting}; alone, a
 * watermark then waits for its interval, and the task wakes for it), or before the next control element; holding
 * a watermark back is always safe, it only arrives later. A watermark that released records goes out at once,
 * though: when the task marks the start of a watermark's passage through its chain ({@link #watermarkStarts}) and
 * records come out before the watermark does (windows or timers fired, a local aggregation flushed its partials),
 * those records are results that consumers wait for, and the watermark that completes them is what lets the next
 * stage fire in turn.
 */
public final class RecordWriter {
    /** Full batches per channel after which a held-back watermark goes out whatever the clock says. */
    static final int WATERMARK_BATCHES_PER_CHANNEL = 4;

    private final Channel[] channels;
    private final RecordBatch[] open;
    private final Partitioning partitioning;
    private final KeySelector<Object, Object> keySelector;
    private final int maxParallelism;
    private final int producerSubtask;
    private final BooleanSupplier cancelled;
    private final Clock clock;
    private final String edgeName;
    private final long watermarkIntervalNanos;
    private int nextRoundRobin;
    /** The newest watermark given to {@link #emitWatermark}, and the newest one sent to the channels. */
    private long pendingWatermark = Long.MIN_VALUE;
    private long sentWatermark = Long.MIN_VALUE;
    private long watermarkSentNanos;
    private int fullBatchesSinceWatermark;
    /** Records in batches sent so far (full or partial); with the open batches, the records appended so far. */
    private long recordsSent;
    /** {@link #appended()} when the task marked the start of the watermark on its way ({@code -1}: no mark). */
    private long appendedAtWatermarkStart = -1;
    private long backpressuredNanos;
    private volatile long blockedCount;

    /**
     * A writer that holds a watermark back for at most {@code watermarkIntervalNanos} (0: sends each at once);
     * see the class comment.
     */
    public RecordWriter(
            String edgeName,
            Channel[] channels,
            Partitioning partitioning,
            KeySelector<Object, Object> keySelector,
            int maxParallelism,
            int producerSubtask,
            BooleanSupplier cancelled,
            Clock clock,
            long watermarkIntervalNanos) {
        if (watermarkIntervalNanos < 0) {
            throw new IllegalArgumentException("watermarkIntervalNanos must be zero or positive, was " + watermarkIntervalNanos);
        }
        this.watermarkIntervalNanos = watermarkIntervalNanos;
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
            key = keySelector.getKey(value); // called here, not in a shared helper: see KeyExtractionException
        } catch (Exception e) {
            throw KeyExtractionException.failed(edgeName, value, e);
        }
        if (key == null) {
            throw KeyExtractionException.nullKey(edgeName, value);
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
        if (element instanceof RecordBatch b) {
            fullBatchesSinceWatermark++;
            recordsSent += b.size();
        }
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

    /** Sends every partial batch now, then the watermark held back, if any. */
    public void flush() {
        flushBatches();
        sendHeldWatermark();
    }

    /**
     * The task is about to wait for input: sends every partial batch now, and the watermark held back if batches
     * went out with it or its interval has passed. Returns how many nanoseconds until a watermark still held back
     * is due ({@code Long.MAX_VALUE}: none held), which the task waits at most: a watermark alone wakes every
     * consumer, and a task that runs dry after every few records would otherwise wake them all that often.
     */
    public long flushBeforeWaiting(long now) {
        boolean sent = flushBatches();
        if (pendingWatermark <= sentWatermark) {
            return Long.MAX_VALUE;
        }
        long due = watermarkSentNanos + watermarkIntervalNanos - now;
        if (sent || due <= 0) {
            sendHeldWatermark();
            return Long.MAX_VALUE;
        }
        return due;
    }

    private boolean flushBatches() {
        boolean sent = false;
        for (int c = 0; c < channels.length; c++) {
            RecordBatch b = open[c];
            if (b != null) {
                open[c] = null;
                send(c, b);
                sent = true;
            }
        }
        return sent;
    }

    private void sendHeldWatermark() {
        if (pendingWatermark > sentWatermark) {
            sentWatermark = pendingWatermark;
            watermarkSentNanos = clock.nanoTime();
            fullBatchesSinceWatermark = 0;
            ControlElement.WatermarkElement element = new ControlElement.WatermarkElement(sentWatermark);
            for (int c = 0; c < channels.length; c++) {
                send(c, element);
            }
        }
    }

    /**
     * Passes a watermark on to every channel after the records emitted before it: at once when the watermark
     * interval has passed since the last one sent (or it is the final {@code Long.MAX_VALUE}), else held back
     * (see the class comment). A watermark not above the previous one is ignored.
     */
    public void emitWatermark(long watermark) {
        boolean released = appendedAtWatermarkStart >= 0 && appended() != appendedAtWatermarkStart;
        appendedAtWatermarkStart = -1;
        if (watermark <= pendingWatermark) {
            return;
        }
        pendingWatermark = watermark;
        if (released || watermark == Long.MAX_VALUE || watermarkIntervalNanos == 0 || sentWatermark == Long.MIN_VALUE
                || fullBatchesSinceWatermark >= WATERMARK_BATCHES_PER_CHANNEL * channels.length
                || clock.nanoTime() - watermarkSentNanos >= watermarkIntervalNanos) {
            flush();
        }
    }

    /**
     * The task is about to pass a watermark through its chain: if records reach this writer before the watermark
     * does, the watermark released them and goes out at once (see the class comment). Task thread.
     */
    public void watermarkStarts() {
        appendedAtWatermarkStart = appended();
    }

    /** Records appended so far; costs one look per channel, so it is read per watermark, never per record. */
    private long appended() {
        long n = recordsSent;
        for (RecordBatch b : open) {
            if (b != null) {
                n += b.size();
            }
        }
        return n;
    }

    /** The newest watermark sent to the channels ({@code Long.MIN_VALUE}: none). */
    public long sentWatermark() {
        return sentWatermark;
    }

    /** Flushes (with the watermark held back), then sends the element to every channel. */
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
