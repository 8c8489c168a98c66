package io.millrace.runtime.exchange;

import io.millrace.api.metrics.ChannelMetrics;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A bounded single-producer single-consumer queue between one producer subtask and one consumer
 * subtask. It holds at most {@link #bound()} elements (record batches or control elements); a producer
 * offering to a full channel parks until the consumer takes one. The bound moves between 1 and
 * {@code capacity}: the consumer sets it so that the channel holds about as much as it reads in a target
 * time (see {@code InFlightSizing}), which keeps a barrier's wait behind data short under backpressure
 * and the queue long when the consumer is fast. Batches come back to the producer through a recycle
 * queue, so a steady stream allocates no new batches.
 *
 * <p>Thread use: {@link #put} and {@link #newBatch} by the producer's thread only; {@link #poll},
 * {@link #recycle} and {@link #bound(int)} by the consumer's thread only; metrics by anyone.
 */
public final class Channel {
    private final Object[] ring;
    private final int mask;
    private final int capacity;
    private final int batchSize;
    private final String from;
    private final String to;
    private final int producerSubtask;
    private final int consumerSubtask;
    // head: next slot to read (consumer-owned); tail: next slot to write (producer-owned)
    private volatile long head;
    private volatile long tail;
    private volatile int highWater;
    /** Elements the channel holds before the producer waits, 1..capacity; set by the consumer. */
    private volatile int bound;
    private final ConcurrentLinkedQueue<RecordBatch> recycled = new ConcurrentLinkedQueue<>();
    private volatile Thread waitingProducer;
    private final TaskSignal consumerSignal;
    /** The highest watermark put here (producer only). */
    private long lastWatermark = Long.MIN_VALUE;
    /**
     * What this channel holds its consumer's watermark to, as far as the producer has put: its highest watermark, or
     * {@code Long.MAX_VALUE} while it is idle or after its end (it holds nothing back then). Written by the producer,
     * read by producers of the same consumer ({@link TaskSignal#signalWatermark}).
     */
    private volatile long heldWatermark = Long.MIN_VALUE;

    public Channel(String from, int producerSubtask, String to, int consumerSubtask, int capacity, int batchSize, TaskSignal consumerSignal) {
        this(from, producerSubtask, to, consumerSubtask, capacity, capacity, batchSize, consumerSignal);
    }

    /** A channel whose bound starts at {@code initialBound} (clamped to 1..capacity) instead of its capacity. */
    public Channel(String from, int producerSubtask, String to, int consumerSubtask, int capacity, int initialBound, int batchSize,
            TaskSignal consumerSignal) {
        this.from = from;
        this.to = to;
        this.producerSubtask = producerSubtask;
        this.consumerSubtask = consumerSubtask;
        this.capacity = capacity;
        this.bound = Math.max(1, Math.min(capacity, initialBound));
        this.batchSize = batchSize;
        int slots = Integer.highestOneBit(Math.max(1, capacity - 1)) << 1;
        this.ring = new Object[Math.max(slots, 2)];
        this.mask = ring.length - 1;
        this.consumerSignal = consumerSignal;
        consumerSignal.addInput(this);
    }

    /** Whether a put would not block now. */
    public boolean writable() {
        return tail - head < bound;
    }

    /**
     * Appends an element, parking while the channel is full. Returns the nanoseconds spent waiting
     * (backpressure), or -1 if {@code cancelled} became true while waiting (the element is not added).
     */
    public long put(Object element, BooleanSupplier cancelled, io.millrace.api.time.Clock clock) {
        long waited = 0;
        ControlElement.WatermarkElement watermark = element instanceof ControlElement.WatermarkElement w ? w : null;
        if (tail - head >= limitFor(watermark)) {
            long start = clock.nanoTime();
            waitingProducer = Thread.currentThread();
            // the consumer may be sleeping through the watermarks that filled the channel
            consumerSignal.signal();
            while (tail - head >= limitFor(watermark)) {
                if (cancelled.getAsBoolean()) {
                    waitingProducer = null;
                    return -1;
                }
                LockSupport.parkNanos(this, 1_000_000L);
            }
            waitingProducer = null;
            waited = Math.max(1, clock.nanoTime() - start);
        }
        long t = tail;
        ring[(int) (t & mask)] = element;
        tail = t + 1;
        int fill = (int) (t + 1 - head);
        if (fill > highWater) {
            highWater = fill;
        }
        if (watermark != null) {
            lastWatermark = Math.max(lastWatermark, watermark.watermark()); // as the consumer counts it: never lowered
            heldWatermark = lastWatermark;
            consumerSignal.signalWatermark(watermark.watermark());
        } else {
            if (element instanceof ControlElement.IdleStatus s) {
                heldWatermark = s.idle() ? Long.MAX_VALUE : lastWatermark;
            } else if (element instanceof ControlElement.EndOfInput) {
                heldWatermark = Long.MAX_VALUE;
            }
            consumerSignal.signal();
        }
        return waited;
    }

    /**
     * How many elements the channel may hold before a put of this one waits: the bound, or for a watermark the
     * capacity (a consumer that sleeps through watermarks, {@link TaskSignal#signalWatermark}, lets them gather, and
     * they are too small to matter for in-flight data).
     */
    private int limitFor(ControlElement.WatermarkElement watermark) {
        return watermark != null ? capacity : bound;
    }

    /** See {@link #heldWatermark}. */
    long heldWatermark() {
        return heldWatermark;
    }

    /**
     * Parks the producer until this channel can take an element, {@code maxNanos} pass, or it is
     * unparked for another reason (a mail); the consumer's next poll wakes it. Wakes the consumer first, which may
     * be sleeping through the watermarks that fill the channel.
     */
    public void awaitWritable(long maxNanos) {
        if (writable()) {
            return;
        }
        waitingProducer = Thread.currentThread();
        consumerSignal.signal();
        if (!writable()) {
            LockSupport.parkNanos(this, maxNanos);
        }
        waitingProducer = null;
    }

    /** The next element, or null if the channel is empty. */
    public Object poll() {
        long h = head;
        if (h == tail) {
            return null;
        }
        int slot = (int) (h & mask);
        Object e = ring[slot];
        ring[slot] = null;
        head = h + 1;
        Thread producer = waitingProducer;
        if (producer != null) {
            LockSupport.unpark(producer);
        }
        return e;
    }

    public boolean isEmpty() {
        return head == tail;
    }

    /** A batch to fill: a recycled one if there is one. */
    public RecordBatch newBatch() {
        RecordBatch b = recycled.poll();
        return b != null ? b : new RecordBatch(batchSize);
    }

    /** Gives a consumed batch back to the producer. */
    public void recycle(RecordBatch batch) {
        batch.clear();
        recycled.offer(batch);
    }

    /** Elements read from this channel so far. Consumer's thread. */
    public long consumed() {
        return head;
    }

    /** How many elements the channel holds before its producer waits now. */
    public int bound() {
        return bound;
    }

    /**
     * Sets how many elements the channel holds before its producer waits, clamped to 1..capacity; a
     * producer waiting on a raised bound is woken. Consumer's thread.
     */
    public void bound(int elements) {
        int b = Math.max(1, Math.min(capacity, elements));
        int old = bound;
        if (b != old) {
            bound = b;
            Thread producer = waitingProducer;
            if (b > old && producer != null) {
                LockSupport.unpark(producer);
            }
        }
    }

    public int size() {
        return (int) (tail - head);
    }

    public int capacity() {
        return capacity;
    }

    public int highWater() {
        return highWater;
    }

    public ChannelMetrics metrics() {
        return new ChannelMetrics(from, to, producerSubtask, consumerSubtask, size(), highWater, capacity, bound);
    }

    @Override
    public String toString() {
        return from + "[" + producerSubtask + "] -> " + to + "[" + consumerSubtask + "]";
    }
}
