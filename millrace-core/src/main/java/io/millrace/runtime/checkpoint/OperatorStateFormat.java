package io.millrace.runtime.checkpoint;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.OutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The layout of an operator-state file ({@code *.op}): the items one subtask of an operator stored.
 *
 * <pre>
 *   int magic 'MOPS', short format version (1), int item count, then per item:
 *     byte 1 (versioned): int kind, int version, int length, bytes     — see {@link VersionedBytes}
 *     byte 0 (object):    int length, a Java-serialized object         — items without a codec
 * </pre>
 *
 * A file that starts with Java serialization's stream header instead (a list written whole by earlier releases) is
 * read as such.
 */
public final class OperatorStateFormat {
    static final int MAGIC = 0x4D4F5053;
    static final short VERSION = 1;
    private static final byte TAG_OBJECT = 0;
    private static final byte TAG_VERSIONED = 1;

    private OperatorStateFormat() {}

    public static void write(List<? extends Serializable> items, OutputStream stream) throws IOException {
        DataOutputStream out = new DataOutputStream(stream);
        out.writeInt(MAGIC);
        out.writeShort(VERSION);
        out.writeInt(items.size());
        for (Serializable item : items) {
            if (item instanceof VersionedBytes v) {
                out.writeByte(TAG_VERSIONED);
                out.writeInt(v.kind());
                out.writeInt(v.version());
                out.writeInt(v.bytes().length);
                out.write(v.bytes());
            } else {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                try (ObjectOutputStream o = new ObjectOutputStream(bytes)) {
                    o.writeObject(item);
                }
                out.writeByte(TAG_OBJECT);
                out.writeInt(bytes.size());
                bytes.writeTo(out);
            }
        }
        out.flush();
    }

    /** Reads a file written by {@link #write}, or the older whole-list Java serialization. */
    public static List<Serializable> read(InputStream stream, String where) throws IOException {
        BufferedInputStream buffered = new BufferedInputStream(stream);
        buffered.mark(4);
        DataInputStream in = new DataInputStream(buffered);
        int magic = in.readInt();
        if ((magic >>> 16) == 0xACED) {
            buffered.reset();
            return readLegacy(buffered, where);
        }
        if (magic != MAGIC) {
            throw new IOException("operator state " + where + " is not an operator-state file (magic " + Integer.toHexString(magic) + ")");
        }
        short version = in.readShort();
        if (version != VERSION) {
            throw new IOException("operator state " + where + " has format version " + version + "; this release reads version " + VERSION);
        }
        int n = in.readInt();
        List<Serializable> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte tag = in.readByte();
            if (tag == TAG_VERSIONED) {
                int kind = in.readInt();
                int v = in.readInt();
                items.add(new VersionedBytes(kind, v, readBytes(in)));
            } else if (tag == TAG_OBJECT) {
                items.add(readObject(new ByteArrayInputStream(readBytes(in)), where));
            } else {
                throw new IOException("operator state " + where + ": item " + i + " has unknown tag " + tag);
            }
        }
        return items;
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return b;
    }

    @SuppressWarnings("unchecked")
    private static List<Serializable> readLegacy(InputStream in, String where) throws IOException {
        return (List<Serializable>) readObject(in, where);
    }

    private static Serializable readObject(InputStream bytes, String where) throws IOException {
        try (ObjectInputStream in = new ObjectInputStream(bytes) {
            @Override
            protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
                try {
                    return Class.forName(desc.getName(), false, Thread.currentThread().getContextClassLoader());
                } catch (ClassNotFoundException e) {
                    return super.resolveClass(desc);
                }
            }
        }) {
            return (Serializable) in.readObject();
        } catch (ClassNotFoundException e) {
            throw new IOException("state file " + where + " names a class that is not on the class path: " + e.getMessage(), e);
        }
    }
}
