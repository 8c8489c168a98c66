package io.millrace.runtime.state.serde;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;

/**
 * The shape of a record or enum class as the job that wrote a value saw it: for a record, its component
 * names and declared types (generic type names, e.g. {@code java.util.List<com.acme.Reading>}) in order;
 * for an enum, its constants in order. A schema dictionary ({@link ShapeDictionary}) keeps each shape once
 * and values refer to it by {@link #id()}, a hash of its encoding: dictionaries of different subtasks and
 * checkpoints then merge by union, without renumbering the values. Immutable and thread-safe.
 */
public final class StoredShape {
    /** What the shape describes: a record, an enum, or a plain class written field by field ({@link PlainClass}). */
    public enum Kind { RECORD, ENUM, CLASS }

    private final Kind kind;
    private final String className;
    /** Component names of a record, constant names of an enum. */
    private final String[] names;
    /** Declared component types of a record; empty for an enum. */
    private final String[] types;
    private final byte[] encoded;
    private final int id;

    private StoredShape(Kind kind, String className, String[] names, String[] types, byte[] encoded) {
        this.kind = kind;
        this.className = className;
        this.names = names;
        this.types = types;
        this.encoded = encoded;
        this.id = hash(encoded);
    }

    /** The shape of a record class, or of a plain class ({@link PlainClass}), as it is now. */
    static StoredShape ofFields(Class<?> type) {
        if (!type.isRecord()) {
            java.lang.reflect.Field[] fields = PlainClass.fields(type);
            String[] names = new String[fields.length];
            String[] types = new String[fields.length];
            for (int i = 0; i < fields.length; i++) {
                names[i] = fields[i].getName();
                types[i] = fields[i].getGenericType().getTypeName();
            }
            return create(Kind.CLASS, type.getName(), names, types);
        }
        RecordComponent[] components = type.getRecordComponents();
        String[] names = new String[components.length];
        String[] types = new String[components.length];
        for (int i = 0; i < components.length; i++) {
            names[i] = components[i].getName();
            types[i] = components[i].getGenericType().getTypeName();
        }
        return create(Kind.RECORD, type.getName(), names, types);
    }

    /** The shape of an enum class as it is now. */
    static StoredShape ofEnum(Class<?> type) {
        Object[] constants = type.getEnumConstants();
        String[] names = new String[constants.length];
        for (int i = 0; i < constants.length; i++) {
            names[i] = ((Enum<?>) constants[i]).name();
        }
        return create(Kind.ENUM, type.getName(), names, new String[0]);
    }

    private static StoredShape create(Kind kind, String className, String[] names, String[] types) {
        ByteWriter out = new ByteWriter(64);
        out.writeByte(kind.ordinal());
        out.writeString(className);
        out.writeVarInt(names.length);
        for (int i = 0; i < names.length; i++) {
            out.writeString(names[i]);
            if (kind != Kind.ENUM) {
                out.writeString(types[i]);
            }
        }
        return new StoredShape(kind, className, names, types, out.toByteArray());
    }

    /** Reads a shape from its {@link #encoded()} form; fails on bytes that are not one. */
    public static StoredShape decode(byte[] bytes) {
        ByteReader in = new ByteReader(bytes, 0, bytes.length);
        int k = in.readUnsignedByte();
        if (k >= Kind.values().length) {
            throw new IllegalStateException("not a stored type shape: kind " + k);
        }
        Kind kind = Kind.values()[k];
        String className = in.readString();
        int n = in.readVarInt();
        String[] names = new String[n];
        String[] types = new String[kind != Kind.ENUM ? n : 0];
        for (int i = 0; i < n; i++) {
            names[i] = in.readString();
            if (kind != Kind.ENUM) {
                types[i] = in.readString();
            }
        }
        if (in.hasRemaining()) {
            throw new IllegalStateException("not a stored type shape: trailing bytes after " + className);
        }
        return new StoredShape(kind, className, names, types, bytes.clone());
    }

    /** The id values carry: a 32-bit hash of {@link #encoded()}. */
    public int id() {
        return id;
    }

    public Kind kind() {
        return kind;
    }

    public String className() {
        return className;
    }

    /** Number of components (record), fields (plain class) or constants (enum). */
    public int size() {
        return names.length;
    }

    /** Name of component or constant {@code i}. */
    public String name(int i) {
        return names[i];
    }

    /** Declared type of record component {@code i}. */
    public String type(int i) {
        return types[i];
    }

    /** The bytes a dictionary stores; {@link #decode} reads them back. */
    public byte[] encoded() {
        return encoded.clone();
    }

    /** Readable form, e.g. {@code record com.acme.Reading(machine: java.lang.String, kwh: double)}. */
    public String describe() {
        StringBuilder b = new StringBuilder(label()).append(' ').append(className);
        b.append(kind != Kind.ENUM ? "(" : " {");
        for (int i = 0; i < names.length; i++) {
            b.append(i > 0 ? ", " : "").append(names[i]);
            if (kind != Kind.ENUM) {
                b.append(": ").append(types[i]);
            }
        }
        return b.append(kind != Kind.ENUM ? ")" : "}").toString();
    }

    /** "record", "enum" or "class", for messages. */
    String label() {
        return switch (kind) {
            case RECORD -> "record";
            case ENUM -> "enum";
            case CLASS -> "class";
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoredShape s && s.id == id && Arrays.equals(s.encoded, encoded);
    }

    @Override
    public int hashCode() {
        return id;
    }

    @Override
    public String toString() {
        return describe();
    }

    /** FNV-1a over the bytes, then a final avalanche so that similar shapes get unrelated ids. */
    private static int hash(byte[] bytes) {
        int h = 0x811C9DC5;
        for (byte b : bytes) {
            h = (h ^ (b & 0xFF)) * 0x01000193;
        }
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        return h ^ (h >>> 16);
    }
}
