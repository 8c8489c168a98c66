package io.millrace.api.source;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * A {@link VersionedCodec} written with {@link DataOutputStream} fields. Subclasses write the fields of the current
 * {@link #version()} and read every version up to it; bytes of a newer version, or with bytes left over, are refused
 * with an error that names the codec and the version.
 */
public abstract class DataCodec<T> implements VersionedCodec<T> {
    private static final long serialVersionUID = 1L;

    protected abstract void write(T value, DataOutputStream out) throws IOException;

    /** Reads a value written in {@code version} (1 to {@link #version()}). */
    protected abstract T read(int version, DataInputStream in) throws IOException;

    /** The codec's name in error messages: its class, with the class it is nested in ({@code KafkaPartitionSplit.Codec}). */
    protected String name() {
        Class<?> outer = getClass().getEnclosingClass();
        return outer == null ? getClass().getSimpleName() : outer.getSimpleName() + "." + getClass().getSimpleName();
    }

    @Override
    public final byte[] encode(T value) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(32);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            write(value, out);
        }
        return bytes.toByteArray();
    }

    @Override
    public final T decode(int version, byte[] bytes) throws IOException {
        if (version < 1 || version > version()) {
            throw new IOException(name() + " reads versions 1 to " + version() + ", not " + version
                    + " (written by a newer release?)");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            T value = read(version, in);
            if (in.available() > 0) {
                throw new IOException(name() + ": " + in.available() + " bytes left over after version " + version);
            }
            return value;
        } catch (java.io.EOFException e) {
            throw new IOException(name() + ": the bytes end early for version " + version, e);
        }
    }
}
