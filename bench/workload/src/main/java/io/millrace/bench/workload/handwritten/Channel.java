package io.millrace.bench.workload.handwritten;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One producer thread to one consumer thread: a ring of batches of record references, and a second ring carrying
 * emptied batches back so that none are allocated while running. The consumer parks when every channel it reads
 * is empty; the producer wakes it after publishing when it has said so. A full ring makes the producer wait
 * (backpressure).
 */
final class Channel {
    static final int BATCH = 512;
    private static final int RING = 16;

    /** Records crossing the channel together, and the producer's watermark when it sent them. */
    static final class Batch {
        final Object[] records = new Object[BATCH];
        int size;
        long watermark;
        boolean last;
    }

    private final Batch[] ring = new Batch[RING];
    private final AtomicLong head = new AtomicLong(); // next to take (consumer)
    private final AtomicLong tail = new AtomicLong(); // next to put (producer)
    private final Batch[] free = new Batch[RING + 1];
    private final AtomicLong freeHead = new AtomicLong();
    private final AtomicLong freeTail = new AtomicLong();
    private final Consumer consumer;
    Batch filling = new Batch();

    Channel(Consumer consumer) {
        this.consumer = consumer;
        for (int i = 0; i < RING; i++) {
            free[i] = new Batch();
        }
        freeTail.set(RING);
    }

    /** The consumer side's thread and its parking flag, shared by the channels it reads. */
    static final class Consumer {
        volatile Thread thread;
        volatile boolean parked;

        /** Parks for at most {@code nanos} unless one of {@code inputs} has a batch once the flag is up. */
        void sleep(Channel[] inputs, long nanos) {
            parked = true;
            for (Channel c : inputs) {
                if (!c.isEmpty()) {
                    parked = false;
                    return;
                }
            }
            LockSupport.parkNanos(nanos);
            parked = false;
        }

        void wake() {
            if (parked) {
                LockSupport.unpark(thread);
            }
        }
    }

    /** Producer: appends a record; sends the batch when full. */
    void add(Object record, long watermark) {
        Batch b = filling;
        b.records[b.size++] = record;
        if (b.size == BATCH) {
            send(watermark, false);
        }
    }

    /** Producer: sends what is buffered (possibly nothing but the watermark, or the end). */
    void send(long watermark, boolean last) {
        Batch b = filling;
        b.watermark = watermark;
        b.last = last;
        long t = tail.get();
        while (t - head.get() == RING) {
            consumer.wake();
            LockSupport.parkNanos(20_000);
            stopIfInterrupted();
        }
        ring[(int) (t % RING)] = b;
        tail.set(t + 1); // a full fence: the read of the consumer's parking flag below cannot move above it
        consumer.wake();
        filling = last ? null : takeFree();
    }

    static void stopIfInterrupted() {
        if (Thread.currentThread().isInterrupted()) {
            throw new IllegalStateException("stopped: another thread of the pipeline failed");
        }
    }

    private Batch takeFree() {
        long h = freeHead.get();
        while (h == freeTail.get()) {
            LockSupport.parkNanos(20_000);
            stopIfInterrupted();
        }
        Batch b = free[(int) (h % free.length)];
        freeHead.lazySet(h + 1);
        b.size = 0;
        return b;
    }

    boolean isEmpty() {
        return head.get() == tail.get();
    }

    /** Consumer: the next batch, or null. Give it back with {@link #recycle} once read. */
    Batch poll() {
        long h = head.get();
        if (h == tail.get()) {
            return null;
        }
        Batch b = ring[(int) (h % RING)];
        head.lazySet(h + 1);
        return b;
    }

    /** Consumer: returns a batch it has read. */
    void recycle(Batch b) {
        java.util.Arrays.fill(b.records, 0, b.size, null);
        long t = freeTail.get();
        free[(int) (t % free.length)] = b;
        freeTail.lazySet(t + 1);
    }
}
