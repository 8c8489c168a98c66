package io.millrace.runtime.state.heap;

import io.millrace.runtime.checkpoint.KeyedStateSnapshot;
import io.millrace.runtime.state.KeyGroupRange;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A heap backend's checkpoint, captured lazily one key group at a time (copy-on-write at key-group
 * granularity). A key group is captured (serialized into its own byte array) by whichever comes first:
 * {@link #write}, which may run on another thread, or the task thread when it is about to change anything
 * in the group ({@link #beforeChange}). Until a group is captured the task thread does not touch it, so its
 * contents are those of the moment {@link HeapKeyedStateBackend#snapshot} was called; later changes,
 * including in-place mutation of stored values, cannot show.
 *
 * <p>Threads: {@link #beforeChange} and {@link #captureAll} on the task thread only; {@link #write} and
 * {@link #release} on any one thread. A group is captured under its own lock, taken once per group and
 * snapshot by each side; the task thread waits at most for the serialization of one group.
 *
 * <p>Limitation: a value object shared by keys of different key groups can show a change made through
 * a key of an already captured group.
 */
final class HeapSnapshot implements KeyedStateSnapshot {
    private static final byte[] NOTHING = new byte[0];

    private final KeyGroupRange range;
    private final KeyGroupSection.Contents contents;
    private final Object[] locks;
    /** Captured sections; null while not captured. Each element guarded by its lock. */
    private final byte[][] sections;
    /** Groups the task thread knows to be captured; task thread only, so checking costs no fence. */
    private final boolean[] knownCaptured;
    private final AtomicInteger uncaptured;
    private volatile IOException failure;
    private volatile boolean released;

    HeapSnapshot(KeyGroupRange range, KeyGroupSection.Contents contents) {
        this.range = range;
        this.contents = contents;
        this.locks = new Object[range.size()];
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new Object();
        }
        this.sections = new byte[range.size()][];
        this.knownCaptured = new boolean[range.size()];
        this.uncaptured = new AtomicInteger(range.size());
    }

    /** Task thread: called before anything of the group at {@code index} ({@code keyGroup - range.start()}) changes. */
    void beforeChange(int index) {
        if (!knownCaptured[index]) {
            capture(index);
            knownCaptured[index] = true;
        }
    }

    /** Task thread: captures every group not captured yet (before another snapshot or a restore). */
    void captureAll() {
        for (int i = 0; i < knownCaptured.length; i++) {
            beforeChange(i);
        }
    }

    /** Whether no group is left to capture, so the task thread can stop calling {@link #beforeChange}. */
    boolean settled() {
        return released || uncaptured.get() == 0;
    }

    /**
     * Writes the key groups in ascending order, capturing those the task thread has not. A value that
     * cannot be serialized fails here, naming its state and class.
     */
    @Override
    public void write(DataOutputStream out, PositionSource positions, long[] keyGroupOffsets) throws IOException {
        if (keyGroupOffsets.length < sections.length) {
            throw new IllegalArgumentException("keyGroupOffsets has room for " + keyGroupOffsets.length
                    + " key groups, the snapshot has " + sections.length);
        }
        for (int i = 0; i < sections.length; i++) {
            byte[] section = capture(i);
            IOException failed = failure;
            if (failed != null) {
                throw new IOException("cannot write the snapshot of key groups [" + range.start() + ", " + range.end()
                        + "]: " + failed.getMessage(), failed);
            }
            if (released) {
                throw new IllegalStateException("the snapshot of key groups [" + range.start() + ", " + range.end() + "] was released");
            }
            out.flush();
            keyGroupOffsets[i] = positions.position();
            out.write(section);
        }
        out.flush();
    }

    /** Drops the captured bytes; groups not captured yet will not be. */
    @Override
    public void release() {
        released = true;
        for (int i = 0; i < sections.length; i++) {
            synchronized (locks[i]) {
                if (sections[i] == null) {
                    uncaptured.decrementAndGet();
                }
                sections[i] = NOTHING;
            }
        }
    }

    /** The group's section, serializing it first if nobody has. */
    private byte[] capture(int index) {
        synchronized (locks[index]) {
            byte[] section = sections[index];
            if (section == null) {
                section = released ? NOTHING : serialize(range.start() + index);
                sections[index] = section;
                uncaptured.decrementAndGet();
            }
            return section;
        }
    }

    /** The section of one group; a failure is kept for {@link #write} rather than thrown at the task thread. */
    private byte[] serialize(int keyGroup) {
        try {
            return KeyGroupSection.write(keyGroup, contents);
        } catch (IOException e) {
            if (failure == null) {
                failure = e;
            }
            return NOTHING;
        }
    }
}
