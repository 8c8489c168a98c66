package io.millrace.rocksdb.serde;

import io.millrace.runtime.timer.VoidNamespace;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns objects into bytes and back. Every value starts with a one-byte type tag, so the encoding is
 * self-describing and self-delimiting: no encoding is a prefix of another, which lets a state key be
 * followed by a namespace or a map key in one row key. Fast paths: primitives and their boxes, String,
 * byte[], long[]/int[]/double[], enums (by name), records (by component, recursively), ArrayList,
 * HashMap, LinkedHashMap, HashSet and the JDK's immutable collections; any other {@link Serializable}
 * falls back to Java serialization.
 *
 * <p>In {@linkplain #canonical() canonical} mode (for keys) the bytes depend only on the value: map
 * and set entries are sorted by their bytes, so equal keys give equal bytes. Java-serialized keys are
 * canonical only if their serialized form is. Not thread-safe: one instance per task thread.
 */
public final class TaggedSerializer {
    static final int NULL = 0;
    static final int FALSE = 1;
    static final int TRUE = 2;
    static final int BYTE = 3;
    static final int SHORT = 4;
    static final int CHAR = 5;
    static final int INT = 6;
    static final int LONG = 7;
    static final int FLOAT = 8;
    static final int DOUBLE = 9;
    static final int STRING = 10;
    static final int BYTES = 11;
    static final int ENUM = 12;
    static final int RECORD = 13;
    static final int LIST = 14;
    static final int MAP = 15;
    static final int LINKED_MAP = 16;
    static final int SET = 17;
    static final int LONGS = 18;
    static final int INTS = 19;
    static final int DOUBLES = 20;
    static final int VOID_NAMESPACE = 21;
    static final int JAVA = 22;

    private final boolean canonical;
    private final ClassLoader loader;
    private final HashMap<String, Class<?>> classes = new HashMap<>();

    private TaggedSerializer(boolean canonical, ClassLoader loader) {
        this.canonical = canonical;
        this.loader = loader;
    }

    /** A serializer for keys, namespaces and map keys: equal values give equal bytes. */
    public static TaggedSerializer canonical() {
        return new TaggedSerializer(true, defaultLoader());
    }

    /** A serializer for values: collections keep their iteration order. */
    public static TaggedSerializer values() {
        return new TaggedSerializer(false, defaultLoader());
    }

    private static ClassLoader defaultLoader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : TaggedSerializer.class.getClassLoader();
    }

    /** Appends the encoding of {@code value} (null allowed). */
    public void write(Object value, ByteWriter out) {
        if (value == null) {
            out.writeByte(NULL);
        } else if (value instanceof String s) {
            out.writeByte(STRING);
            writeString(s, out);
        } else if (value instanceof Long l) {
            out.writeByte(LONG);
            out.writeVarLong(l);
        } else if (value instanceof Integer i) {
            out.writeByte(INT);
            out.writeVarLong(i);
        } else if (value instanceof Double d) {
            out.writeByte(DOUBLE);
            out.writeLong(Double.doubleToLongBits(d));
        } else if (value instanceof Boolean b) {
            out.writeByte(b ? TRUE : FALSE);
        } else if (value instanceof Record r) {
            writeRecord(r, out);
        } else if (value instanceof Enum<?> e) {
            out.writeByte(ENUM);
            writeString(e.getDeclaringClass().getName(), out);
            writeString(e.name(), out);
        } else if (value instanceof VoidNamespace) {
            out.writeByte(VOID_NAMESPACE);
        } else {
            writeOther(value, out);
        }
    }

    private void writeOther(Object value, ByteWriter out) {
        Class<?> type = value.getClass();
        if (value instanceof Float f) {
            out.writeByte(FLOAT);
            out.writeInt(Float.floatToIntBits(f));
        } else if (value instanceof Short s) {
            out.writeByte(SHORT);
            out.writeShort(s);
        } else if (value instanceof Byte b) {
            out.writeByte(BYTE);
            out.writeByte(b);
        } else if (value instanceof Character c) {
            out.writeByte(CHAR);
            out.writeShort(c);
        } else if (value instanceof byte[] bytes) {
            out.writeByte(BYTES);
            out.writeVarInt(bytes.length);
            out.write(bytes);
        } else if (value instanceof long[] longs) {
            out.writeByte(LONGS);
            out.writeVarInt(longs.length);
            for (long l : longs) {
                out.writeLong(l);
            }
        } else if (value instanceof int[] ints) {
            out.writeByte(INTS);
            out.writeVarInt(ints.length);
            for (int i : ints) {
                out.writeInt(i);
            }
        } else if (value instanceof double[] doubles) {
            out.writeByte(DOUBLES);
            out.writeVarInt(doubles.length);
            for (double d : doubles) {
                out.writeLong(Double.doubleToLongBits(d));
            }
        } else if (value instanceof List<?> list && isPlainList(type)) {
            out.writeByte(LIST);
            out.writeVarInt(list.size());
            for (Object o : list) {
                write(o, out);
            }
        } else if (value instanceof Map<?, ?> map && (type == HashMap.class || type == LinkedHashMap.class || isImmutable(type))) {
            out.writeByte(type == LinkedHashMap.class ? LINKED_MAP : MAP);
            writeMap(map, out);
        } else if (value instanceof Set<?> set && (type == HashSet.class || isImmutable(type))) {
            out.writeByte(SET);
            writeElements(set, out);
        } else if (value instanceof Serializable) {
            out.writeByte(JAVA);
            byte[] bytes = javaSerialize(value);
            out.writeVarInt(bytes.length);
            out.write(bytes);
        } else {
            throw new IllegalArgumentException("cannot serialize " + type.getName()
                    + ": state values must be primitives, strings, byte arrays, enums, records, lists, maps, sets or Serializable");
        }
    }

    private static boolean isPlainList(Class<?> type) {
        return type == ArrayList.class || isImmutable(type) || type.getName().equals("java.util.Arrays$ArrayList");
    }

    private static boolean isImmutable(Class<?> type) {
        String name = type.getName();
        return name.startsWith("java.util.ImmutableCollections$") || name.startsWith("java.util.Collections$Unmodifiable")
                || name.startsWith("java.util.Collections$Singleton") || name.startsWith("java.util.Collections$Empty");
    }

    private void writeRecord(Record r, ByteWriter out) {
        RecordShape shape = RecordShape.of(r.getClass());
        out.writeByte(RECORD);
        writeString(shape.type.getName(), out);
        out.writeVarInt(shape.types.length);
        for (int i = 0; i < shape.types.length; i++) {
            Object c = shape.component(r, i);
            Class<?> t = shape.types[i];
            if (t.isPrimitive()) {
                writePrimitive(t, c, out);
            } else {
                write(c, out);
            }
        }
    }

    private static void writePrimitive(Class<?> t, Object c, ByteWriter out) {
        if (t == long.class) {
            out.writeVarLong((Long) c);
        } else if (t == int.class) {
            out.writeVarLong((Integer) c);
        } else if (t == double.class) {
            out.writeLong(Double.doubleToLongBits((Double) c));
        } else if (t == boolean.class) {
            out.writeByte((Boolean) c ? 1 : 0);
        } else if (t == float.class) {
            out.writeInt(Float.floatToIntBits((Float) c));
        } else if (t == short.class) {
            out.writeShort((Short) c);
        } else if (t == byte.class) {
            out.writeByte((Byte) c);
        } else {
            out.writeShort((Character) c);
        }
    }

    private void writeMap(Map<?, ?> map, ByteWriter out) {
        out.writeVarInt(map.size());
        if (!canonical) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                write(e.getKey(), out);
                write(e.getValue(), out);
            }
            return;
        }
        byte[][] entries = new byte[map.size()][];
        int i = 0;
        ByteWriter one = new ByteWriter(32);
        for (Map.Entry<?, ?> e : map.entrySet()) {
            one.reset();
            write(e.getKey(), one);
            write(e.getValue(), one);
            entries[i++] = one.toByteArray();
        }
        writeSorted(entries, out);
    }

    private void writeElements(Collection<?> elements, ByteWriter out) {
        out.writeVarInt(elements.size());
        if (!canonical) {
            for (Object o : elements) {
                write(o, out);
            }
            return;
        }
        byte[][] encoded = new byte[elements.size()][];
        int i = 0;
        ByteWriter one = new ByteWriter(32);
        for (Object o : elements) {
            one.reset();
            write(o, one);
            encoded[i++] = one.toByteArray();
        }
        writeSorted(encoded, out);
    }

    private static void writeSorted(byte[][] encoded, ByteWriter out) {
        Arrays.sort(encoded, Arrays::compareUnsigned);
        for (byte[] e : encoded) {
            out.write(e);
        }
    }

    private static void writeString(String s, ByteWriter out) {
        int n = s.length();
        boolean ascii = true;
        for (int i = 0; i < n && ascii; i++) {
            ascii = s.charAt(i) < 0x80;
        }
        if (ascii) {
            out.writeVarInt(n);
            for (int i = 0; i < n; i++) {
                out.writeByte(s.charAt(i));
            }
        } else {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            out.writeVarInt(utf8.length);
            out.write(utf8);
        }
    }

    private static byte[] javaSerialize(Object value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot serialize " + value.getClass().getName() + ": " + e.getMessage(), e);
        }
        return bytes.toByteArray();
    }

    /** Reads one value written by {@link #write}. */
    public Object read(ByteReader in) {
        int tag = in.readUnsignedByte();
        switch (tag) {
            case NULL: return null;
            case FALSE: return Boolean.FALSE;
            case TRUE: return Boolean.TRUE;
            case BYTE: return (byte) in.readByte();
            case SHORT: return (short) in.readShort();
            case CHAR: return (char) in.readShort();
            case INT: return (int) in.readVarLong();
            case LONG: return in.readVarLong();
            case FLOAT: return Float.intBitsToFloat(in.readInt());
            case DOUBLE: return Double.longBitsToDouble(in.readLong());
            case STRING: return in.readUtf8(in.readVarInt());
            case BYTES: return in.readBytes(in.readVarInt());
            case ENUM: return readEnum(in);
            case RECORD: return readRecord(in);
            case LIST: return readList(in);
            case MAP: return readMap(in, new HashMap<>());
            case LINKED_MAP: return readMap(in, new LinkedHashMap<>());
            case SET: return readSet(in);
            case LONGS: return readLongs(in);
            case INTS: return readInts(in);
            case DOUBLES: return readDoubles(in);
            case VOID_NAMESPACE: return VoidNamespace.INSTANCE;
            case JAVA: return javaDeserialize(in.readBytes(in.readVarInt()));
            default: throw new IllegalStateException("unknown type tag " + tag + " at byte " + (in.position() - 1));
        }
    }

    private Object readEnum(ByteReader in) {
        Class<?> type = load(in.readUtf8(in.readVarInt()));
        String name = in.readUtf8(in.readVarInt());
        for (Object constant : type.getEnumConstants()) {
            if (((Enum<?>) constant).name().equals(name)) {
                return constant;
            }
        }
        throw new IllegalStateException("enum " + type.getName() + " has no constant '" + name + "' any more");
    }

    private Object readRecord(ByteReader in) {
        RecordShape shape = readShape(in);
        int count = shape.types.length;
        Object[] values = new Object[count];
        for (int i = 0; i < count; i++) {
            Class<?> t = shape.types[i];
            values[i] = t.isPrimitive() ? readPrimitive(t, in) : read(in);
        }
        return shape.construct(values);
    }

    /** Reads a record's class and component count; the count must match the class as it is now. */
    private RecordShape readShape(ByteReader in) {
        Class<?> type = load(in.readUtf8(in.readVarInt()));
        RecordShape shape = RecordShape.of(type);
        int count = in.readVarInt();
        if (count != shape.types.length) {
            throw new IllegalStateException("record " + type.getName() + " was stored with " + count
                    + " components but now has " + shape.types.length + " " + Arrays.toString(shape.names));
        }
        return shape;
    }

    private static Object readPrimitive(Class<?> t, ByteReader in) {
        if (t == long.class) {
            return in.readVarLong();
        } else if (t == int.class) {
            return (int) in.readVarLong();
        } else if (t == double.class) {
            return Double.longBitsToDouble(in.readLong());
        } else if (t == boolean.class) {
            return in.readByte() != 0;
        } else if (t == float.class) {
            return Float.intBitsToFloat(in.readInt());
        } else if (t == short.class) {
            return (short) in.readShort();
        } else if (t == byte.class) {
            return (byte) in.readByte();
        }
        return (char) in.readShort();
    }

    private ArrayList<Object> readList(ByteReader in) {
        int n = in.readVarInt();
        ArrayList<Object> list = new ArrayList<>(Math.max(n, 4));
        for (int i = 0; i < n; i++) {
            list.add(read(in));
        }
        return list;
    }

    private Map<Object, Object> readMap(ByteReader in, Map<Object, Object> map) {
        int n = in.readVarInt();
        for (int i = 0; i < n; i++) {
            Object k = read(in);
            map.put(k, read(in));
        }
        return map;
    }

    private HashSet<Object> readSet(ByteReader in) {
        int n = in.readVarInt();
        HashSet<Object> set = new HashSet<>();
        for (int i = 0; i < n; i++) {
            set.add(read(in));
        }
        return set;
    }

    private static long[] readLongs(ByteReader in) {
        long[] a = new long[in.readVarInt()];
        for (int i = 0; i < a.length; i++) {
            a[i] = in.readLong();
        }
        return a;
    }

    private static int[] readInts(ByteReader in) {
        int[] a = new int[in.readVarInt()];
        for (int i = 0; i < a.length; i++) {
            a[i] = in.readInt();
        }
        return a;
    }

    private static double[] readDoubles(ByteReader in) {
        double[] a = new double[in.readVarInt()];
        for (int i = 0; i < a.length; i++) {
            a[i] = Double.longBitsToDouble(in.readLong());
        }
        return a;
    }

    /** Moves past one value without building it where the encoding allows. */
    public void skip(ByteReader in) {
        int tag = in.readUnsignedByte();
        switch (tag) {
            case NULL, FALSE, TRUE, VOID_NAMESPACE -> { }
            case BYTE -> in.skip(1);
            case SHORT, CHAR -> in.skip(2);
            case INT, LONG -> in.readVarLong();
            case FLOAT -> in.skip(4);
            case DOUBLE -> in.skip(8);
            case STRING, BYTES, JAVA -> in.skip(in.readVarInt());
            case LONGS, DOUBLES -> in.skip(8 * in.readVarInt());
            case INTS -> in.skip(4 * in.readVarInt());
            case ENUM -> {
                in.skip(in.readVarInt());
                in.skip(in.readVarInt());
            }
            case LIST, SET -> skipValues(in, in.readVarInt());
            case MAP, LINKED_MAP -> skipValues(in, 2 * in.readVarInt());
            case RECORD -> skipRecord(in);
            default -> throw new IllegalStateException("unknown type tag " + tag + " at byte " + (in.position() - 1));
        }
    }

    private void skipRecord(ByteReader in) {
        RecordShape shape = readShape(in);
        for (int i = 0; i < shape.types.length; i++) {
            Class<?> t = shape.types[i];
            if (t.isPrimitive()) {
                readPrimitive(t, in);
            } else {
                skip(in);
            }
        }
    }

    private void skipValues(ByteReader in, int n) {
        for (int i = 0; i < n; i++) {
            skip(in);
        }
    }

    private Class<?> load(String name) {
        Class<?> c = classes.get(name);
        if (c == null) {
            try {
                c = Class.forName(name, false, loader);
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("stored state refers to class " + name + ", which is not on the class path", e);
            }
            classes.put(name, c);
        }
        return c;
    }

    private Object javaDeserialize(byte[] bytes) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes)) {
            @Override
            protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
                try {
                    return Class.forName(desc.getName(), false, loader);
                } catch (ClassNotFoundException e) {
                    return super.resolveClass(desc);
                }
            }
        }) {
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("cannot deserialize a Java-serialized state value: " + e.getMessage(), e);
        }
    }
}
