package io.millrace.runtime.state.heap;

import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateSnapshot;
import io.millrace.runtime.state.serde.ByteWriter;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A heap backend's checkpoint, captured lazily one key group at a time (copy-on-write at key-group
 * granularity). A key group is captured by whichever comes first: {@link #write}, which may run on another
 * thread and serializes the group into its section at once, or the task thread when it is about to change
 * anything in the group ({@link #beforeChange}). The task thread takes the cheap way: states whose values are
 * all immutable, and timers, are copied as references, and only the rest is serialized there
 * ({@link KeyGroupSection#capture}); {@link #write} serializes the copies later. Until a group is captured the
 * task thread does not touch it, so its contents are those of the moment {@link HeapKeyedStateBackend#snapshot}
 * was called; later changes, including in-place mutation of stored (mutable, hence serialized) values, cannot show.
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
    /**
     * Per group: null while not captured, a {@link KeyGroupSection.Captured} (taken by the task thread, or
     * serialized by {@link #write} itself) that {@code write} still has to send, or {@link #NOTHING} once written,
     * released or failed. Each element guarded by its lock.
     */
    private final Object[] sections;
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
        this.sections = new Object[range.size()];
        this.knownCaptured = new boolean[range.size()];
        this.uncaptured = new AtomicInteger(range.size());
    }

    /** Task thread: called before anything of the group at {@code index} ({@code keyGroup - range.start()}) changes. */
    void beforeChange(int index) {
        if (!knownCaptured[index]) {
            synchronized (locks[index]) {
                if (sections[index] == null) {
                    sections[index] = released ? NOTHING : copyOrSerialize(range.start() + index);
                    uncaptured.decrementAndGet();
                }
            }
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
     * cannot be serialized fails here, naming its state and class. Once only: each group's capture is dropped as
     * soon as it is written, so that a large state's bytes do not all stay alive (and get copied by young
     * collections) until the last group is out.
     */
    @Override
    public void write(DataOutputStream out, PositionSource positions, long[] keyGroupOffsets) throws IOException {
        if (keyGroupOffsets.length < sections.length) {
            throw new IllegalArgumentException("keyGroupOffsets has room for " + keyGroupOffsets.length
                    + " key groups, the snapshot has " + sections.length);
        }
        ByteWriter scratch = new ByteWriter(4096); // reused by every group's section (see Captured.writeTo)
        ByteWriter serialized = new ByteWriter(4096); // reused by every group this thread serializes itself
        for (int i = 0; i < sections.length; i++) {
            Object section = capture(i, serialized);
            IOException failed = failure;
            if (failed != null) {
                throw cannotWrite(failed);
            }
            if (released) {
                throw new IllegalStateException("the snapshot of key groups [" + range.start() + ", " + range.end() + "] was released");
            }
            out.flush();
            keyGroupOffsets[i] = positions.position();
            if (section instanceof byte[] bytes) {
                out.write(bytes);
            } else {
                try {
                    // serialized now, outside the group's lock: the task thread no longer touches what it holds
                    ((KeyGroupSection.Captured) section).writeTo(out, scratch);
                } catch (IOException e) {
                    throw cannotWrite(e);
                }
            }
            synchronized (locks[i]) {
                sections[i] = NOTHING; // written: let the bytes and captured references go now, not at the end
            }
        }
        out.flush();
    }

    private IOException cannotWrite(IOException failed) {
        return new IOException("cannot write the snapshot of key groups [" + range.start() + ", " + range.end() + "]: "
                + failed.getMessage(), failed);
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

    /** The group's capture, serializing the group into {@code buffer} first if nobody has captured it. */
    private Object capture(int index, ByteWriter buffer) {
        synchronized (locks[index]) {
            Object section = sections[index];
            if (section == null) {
                section = released ? NOTHING : serialize(range.start() + index, buffer);
                sections[index] = section;
                uncaptured.decrementAndGet();
            }
            return section;
        }
    }

    /**
     * The group serialized (nothing copied as references), for {@link #write} to send on outside the lock without
     * copying the bytes into an array of their own first; a failure is kept for {@code write} rather than thrown.
     */
    private Object serialize(int keyGroup, ByteWriter buffer) {
        try {
            return KeyGroupSection.capture(keyGroup, contents, false, buffer);
        } catch (IOException e) {
            fail(e);
            return NOTHING;
        }
    }

    /** Task thread: the group copied as references where its values allow, else serialized. */
    private Object copyOrSerialize(int keyGroup) {
        try {
            return KeyGroupSection.capture(keyGroup, contents, true);
        } catch (IOException e) {
            fail(e);
            return NOTHING;
        }
    }

    private void fail(IOException e) {
        if (failure == null) {
            failure = e;
        }
    }
}
