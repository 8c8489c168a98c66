package io.millrace.runtime.state.heap;

import java.io.OutputStream;
import java.util.Arrays;

/** A growable, unsynchronized byte buffer that a snapshot serializes key groups into. One thread at a time. */
final class CaptureBuffer extends OutputStream {
    private byte[] bytes = new byte[4096];
    private int size;

    @Override
    public void write(int b) {
        ensure(1);
        bytes[size++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, bytes, size, len);
        size += len;
    }

    /** The bytes written since the last {@link #reset}, as a new array. */
    byte[] copy() {
        return Arrays.copyOf(bytes, size);
    }

    void reset() {
        size = 0;
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(size + (long) more, bytes.length * 2L)));
        }
    }
}
