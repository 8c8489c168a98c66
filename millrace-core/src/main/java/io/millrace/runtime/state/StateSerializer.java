package io.millrace.runtime.state;

import io.millrace.runtime.timer.VoidNamespace;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.StreamCorruptedException;
import java.lang.reflect.Array;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Writes and reads state values (user objects) for checkpoints: a tag byte, then the payload. Fast paths
 * for null, boxed primitives, String, primitive arrays, enums (by name), records (by component,
 * recursively; primitive components untagged), object arrays and the common JDK collections and maps
 * (exact classes only, so the type survives); anything else {@link Serializable} goes through Java
 * serialization. A value that is none of these fails with {@link NotSerializableException} naming its
 * class.
 *
 * <p>Class names are written once per section: an instance numbers the classes it has written (or read)
 * and later refers to them by number. A writer and the reader of the same section must therefore start
 * with fresh instances (or {@link #reset}) at the same place. Not thread-safe: one instance per section
 * being written or read.
 */
public final class StateSerializer {
    private static final int NULL = 0;
    private static final int INT = 1;
    private static final int LONG = 2;
    private static final int DOUBLE = 3;
    private static final int FLOAT = 4;
    private static final int SHORT = 5;
    private static final int BYTE = 6;
    private static final int CHAR = 7;
    private static final int TRUE = 8;
    private static final int FALSE = 9;
    private static final int STRING = 10;
    private static final int BYTES = 11;
    private static final int INTS = 12;
    private static final int LONGS = 13;
    private static final int DOUBLES = 14;
    private static final int FLOATS = 15;
    private static final int SHORTS = 16;
    private static final int CHARS = 17;
    private static final int BOOLEANS = 18;
    private static final int ENUM = 20;
    private static final int RECORD = 21;
    private static final int COLLECTION = 22;
    private static final int MAP = 23;
    private static final int OBJECTS = 24;
    private static final int VOID_NAMESPACE = 25;
    private static final int JAVA = 26;

    /** Exact collection classes with a fast path, by their code in the stream. */
    private static final List<Class<?>> COLLECTIONS = List.of(
            ArrayList.class, LinkedList.class, HashSet.class, LinkedHashSet.class, TreeSet.class, ArrayDeque.class);
    private static final List<Class<?>> MAPS = List.of(HashMap.class, LinkedHashMap.class, TreeMap.class);

    private static final ClassValue<RecordShape> SHAPES = new ClassValue<>() {
        @Override
        protected RecordShape computeValue(Class<?> type) {
            return RecordShape.of(type);
        }
    };

    private final Map<Class<?>, Integer> writtenClasses = new HashMap<>();
    private final List<Class<?>> readClasses = new ArrayList<>();
    private final ClassLoader loader;

    /** Resolves classes on read through the thread's context class loader, else this class's loader. */
    public StateSerializer() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        this.loader = context != null ? context : StateSerializer.class.getClassLoader();
    }

    /** Forgets the classes numbered so far: the start of a new self-contained section. */
    public void reset() {
        writtenClasses.clear();
        readClasses.clear();
    }

    /** Writes {@code value}; fails with {@link NotSerializableException} when a part of it cannot be written. */
    public void write(DataOutputStream out, Object value) throws IOException {
        if (value == null) {
            out.writeByte(NULL);
            return;
        }
        Class<?> c = value.getClass();
        if (c == String.class) {
            byte[] utf8 = ((String) value).getBytes(StandardCharsets.UTF_8);
            out.writeByte(STRING);
            out.writeInt(utf8.length);
            out.write(utf8);
        } else if (c == Long.class) {
            out.writeByte(LONG);
            out.writeLong((Long) value);
        } else if (c == Integer.class) {
            out.writeByte(INT);
            out.writeInt((Integer) value);
        } else if (c == Double.class) {
            out.writeByte(DOUBLE);
            out.writeDouble((Double) value);
        } else if (c == Boolean.class) {
            out.writeByte((Boolean) value ? TRUE : FALSE);
        } else if (c == Float.class) {
            out.writeByte(FLOAT);
            out.writeFloat((Float) value);
        } else if (c == Short.class) {
            out.writeByte(SHORT);
            out.writeShort((Short) value);
        } else if (c == Byte.class) {
            out.writeByte(BYTE);
            out.writeByte((Byte) value);
        } else if (c == Character.class) {
            out.writeByte(CHAR);
            out.writeChar((Character) value);
        } else if (c.isArray()) {
            writeArray(out, value, c);
        } else if (c.isRecord()) {
            writeRecord(out, value, c);
        } else if (value instanceof Enum<?> e) {
            out.writeByte(ENUM);
            writeClass(out, e.getDeclaringClass());
            out.writeUTF(e.name());
        } else if (COLLECTIONS.contains(c)) {
            Collection<?> items = (Collection<?>) value;
            if (c == TreeSet.class && ((TreeSet<?>) value).comparator() != null) {
                writeJava(out, value);
                return;
            }
            out.writeByte(COLLECTION);
            out.writeByte(COLLECTIONS.indexOf(c));
            out.writeInt(items.size());
            for (Object item : items) {
                write(out, item);
            }
        } else if (MAPS.contains(c)) {
            if (c == TreeMap.class && ((TreeMap<?, ?>) value).comparator() != null) {
                writeJava(out, value);
                return;
            }
            Map<?, ?> map = (Map<?, ?>) value;
            out.writeByte(MAP);
            out.writeByte(MAPS.indexOf(c));
            out.writeInt(map.size());
            for (Map.Entry<?, ?> e : map.entrySet()) {
                write(out, e.getKey());
                write(out, e.getValue());
            }
        } else if (c == VoidNamespace.class) {
            out.writeByte(VOID_NAMESPACE);
        } else {
            writeJava(out, value);
        }
    }

    /** Reads a value written by {@link #write}. */
    public Object read(DataInputStream in) throws IOException {
        int tag = in.readUnsignedByte();
        switch (tag) {
            case NULL:
                return null;
            case INT:
                return in.readInt();
            case LONG:
                return in.readLong();
            case DOUBLE:
                return in.readDouble();
            case FLOAT:
                return in.readFloat();
            case SHORT:
                return in.readShort();
            case BYTE:
                return in.readByte();
            case CHAR:
                return in.readChar();
            case TRUE:
                return Boolean.TRUE;
            case FALSE:
                return Boolean.FALSE;
            case STRING: {
                byte[] utf8 = new byte[in.readInt()];
                in.readFully(utf8);
                return new String(utf8, StandardCharsets.UTF_8);
            }
            case BYTES:
            case INTS:
            case LONGS:
            case DOUBLES:
            case FLOATS:
            case SHORTS:
            case CHARS:
            case BOOLEANS:
                return readPrimitiveArray(in, tag);
            case OBJECTS: {
                Class<?> component = readClass(in);
                Object[] items = (Object[]) Array.newInstance(component, in.readInt());
                for (int i = 0; i < items.length; i++) {
                    items[i] = read(in);
                }
                return items;
            }
            case ENUM:
                return readEnum(readClass(in), in.readUTF());
            case RECORD:
                return readRecord(in);
            case COLLECTION:
                return readCollection(in);
            case MAP:
                return readMap(in);
            case VOID_NAMESPACE:
                return VoidNamespace.INSTANCE;
            case JAVA:
                return readJava(in);
            default:
                throw new StreamCorruptedException("unknown state value tag " + tag);
        }
    }

    private void writeArray(DataOutputStream out, Object value, Class<?> c) throws IOException {
        if (c == double[].class) {
            double[] a = (double[]) value;
            out.writeByte(DOUBLES);
            out.writeInt(a.length);
            for (double d : a) {
                out.writeDouble(d);
            }
        } else if (c == long[].class) {
            long[] a = (long[]) value;
            out.writeByte(LONGS);
            out.writeInt(a.length);
            for (long l : a) {
                out.writeLong(l);
            }
        } else if (c == byte[].class) {
            byte[] a = (byte[]) value;
            out.writeByte(BYTES);
            out.writeInt(a.length);
            out.write(a);
        } else if (c == int[].class) {
            int[] a = (int[]) value;
            out.writeByte(INTS);
            out.writeInt(a.length);
            for (int i : a) {
                out.writeInt(i);
            }
        } else if (c == float[].class) {
            float[] a = (float[]) value;
            out.writeByte(FLOATS);
            out.writeInt(a.length);
            for (float f : a) {
                out.writeFloat(f);
            }
        } else if (c == short[].class) {
            short[] a = (short[]) value;
            out.writeByte(SHORTS);
            out.writeInt(a.length);
            for (short s : a) {
                out.writeShort(s);
            }
        } else if (c == char[].class) {
            char[] a = (char[]) value;
            out.writeByte(CHARS);
            out.writeInt(a.length);
            for (char ch : a) {
                out.writeChar(ch);
            }
        } else if (c == boolean[].class) {
            boolean[] a = (boolean[]) value;
            out.writeByte(BOOLEANS);
            out.writeInt(a.length);
            for (boolean b : a) {
                out.writeBoolean(b);
            }
        } else {
            Object[] a = (Object[]) value;
            out.writeByte(OBJECTS);
            writeClass(out, c.getComponentType());
            out.writeInt(a.length);
            for (Object item : a) {
                write(out, item);
            }
        }
    }

    private static Object readPrimitiveArray(DataInputStream in, int tag) throws IOException {
        int n = in.readInt();
        switch (tag) {
            case BYTES: {
                byte[] a = new byte[n];
                in.readFully(a);
                return a;
            }
            case INTS: {
                int[] a = new int[n];
                for (int i = 0; i < n; i++) {
                    a[i] = in.readInt();
                }
                return a;
            }
            case LONGS: {
                long[] a = new long[n];
                for (int i = 0; i < n; i++) {
                    a[i] = in.readLong();
                }
                return a;
            }
            case DOUBLES: {
                double[] a = new double[n];
                for (int i = 0; i < n; i++) {
                    a[i] = in.readDouble();
                }
                return a;
            }
            case FLOATS: {
                float[] a = new float[n];
                for (int i = 0; i < n; i++) {
                    a[i] = in.readFloat();
                }
                return a;
            }
            case SHORTS: {
                short[] a = new short[n];
                for (int i = 0; i < n; i++) {
                    a[i] = in.readShort();
                }
                return a;
            }
            case CHARS: {
                char[] a = new char[n];
                for (int i = 0; i < n; i++) {
                    a[i] = in.readChar();
                }
                return a;
            }
            default: {
                boolean[] a = new boolean[n];
                for (int i = 0; i < n; i++) {
                    a[i] = in.readBoolean();
                }
                return a;
            }
        }
    }

    private void writeRecord(DataOutputStream out, Object value, Class<?> c) throws IOException {
        RecordShape shape = SHAPES.get(c);
        out.writeByte(RECORD);
        if (writeClass(out, c)) {
            out.writeByte(shape.types.length);
        }
        for (int i = 0; i < shape.types.length; i++) {
            Object component = shape.component(value, i);
            Class<?> type = shape.types[i];
            if (type == long.class) {
                out.writeLong((Long) component);
            } else if (type == double.class) {
                out.writeDouble((Double) component);
            } else if (type == int.class) {
                out.writeInt((Integer) component);
            } else if (type == boolean.class) {
                out.writeBoolean((Boolean) component);
            } else if (type == float.class) {
                out.writeFloat((Float) component);
            } else if (type == short.class) {
                out.writeShort((Short) component);
            } else if (type == byte.class) {
                out.writeByte((Byte) component);
            } else if (type == char.class) {
                out.writeChar((Character) component);
            } else {
                write(out, component);
            }
        }
    }

    private Object readRecord(DataInputStream in) throws IOException {
        int before = readClasses.size();
        Class<?> c = readClass(in);
        RecordShape shape = SHAPES.get(c);
        if (readClasses.size() > before) {
            int written = in.readUnsignedByte();
            if (written != shape.types.length) {
                throw new StreamCorruptedException("record " + c.getName() + " was written with " + written
                        + " components but has " + shape.types.length + " now");
            }
        }
        Object[] args = new Object[shape.types.length];
        for (int i = 0; i < args.length; i++) {
            Class<?> type = shape.types[i];
            if (type == long.class) {
                args[i] = in.readLong();
            } else if (type == double.class) {
                args[i] = in.readDouble();
            } else if (type == int.class) {
                args[i] = in.readInt();
            } else if (type == boolean.class) {
                args[i] = in.readBoolean();
            } else if (type == float.class) {
                args[i] = in.readFloat();
            } else if (type == short.class) {
                args[i] = in.readShort();
            } else if (type == byte.class) {
                args[i] = in.readByte();
            } else if (type == char.class) {
                args[i] = in.readChar();
            } else {
                args[i] = read(in);
            }
        }
        return shape.create(args);
    }

    private Object readCollection(DataInputStream in) throws IOException {
        Class<?> c = COLLECTIONS.get(in.readUnsignedByte());
        int n = in.readInt();
        @SuppressWarnings("unchecked")
        Collection<Object> items = (Collection<Object>) (c == ArrayList.class ? new ArrayList<>(n)
                : c == LinkedList.class ? new LinkedList<>()
                : c == HashSet.class ? new HashSet<>(capacity(n))
                : c == LinkedHashSet.class ? new LinkedHashSet<>(capacity(n))
                : c == TreeSet.class ? new TreeSet<>()
                : new ArrayDeque<>(n));
        for (int i = 0; i < n; i++) {
            items.add(read(in));
        }
        return items;
    }

    private Object readMap(DataInputStream in) throws IOException {
        Class<?> c = MAPS.get(in.readUnsignedByte());
        int n = in.readInt();
        Map<Object, Object> map = c == HashMap.class ? new HashMap<>(capacity(n))
                : c == LinkedHashMap.class ? new LinkedHashMap<>(capacity(n))
                : new TreeMap<>();
        for (int i = 0; i < n; i++) {
            Object k = read(in);
            map.put(k, read(in));
        }
        return map;
    }

    /** A hash table capacity that holds {@code n} entries without rehashing. */
    private static int capacity(int n) {
        return (int) Math.min(1 << 30, n * 4L / 3 + 1);
    }

    private void writeJava(DataOutputStream out, Object value) throws IOException {
        if (!(value instanceof Serializable)) {
            throw new NotSerializableException(value.getClass().getName());
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream objects = new ObjectOutputStream(bytes)) {
            objects.writeObject(value);
        }
        out.writeByte(JAVA);
        out.writeInt(bytes.size());
        bytes.writeTo(out);
    }

    private Object readJava(DataInputStream in) throws IOException {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        try (ObjectInputStream objects = new LoaderObjectInputStream(new ByteArrayInputStream(bytes), loader)) {
            return objects.readObject();
        } catch (ClassNotFoundException e) {
            throw new IOException("cannot restore a state value: class " + e.getMessage() + " not found", e);
        }
    }

    /** Writes a class reference; returns true when this is its first occurrence in the section (name written). */
    private boolean writeClass(DataOutputStream out, Class<?> c) throws IOException {
        Integer id = writtenClasses.get(c);
        if (id != null) {
            out.writeInt(id);
            return false;
        }
        writtenClasses.put(c, writtenClasses.size());
        out.writeInt(-1);
        out.writeUTF(c.getName());
        return true;
    }

    private Class<?> readClass(DataInputStream in) throws IOException {
        int id = in.readInt();
        if (id >= 0) {
            if (id >= readClasses.size()) {
                throw new StreamCorruptedException("unknown class number " + id + " in state section");
            }
            return readClasses.get(id);
        }
        String name = in.readUTF();
        try {
            Class<?> c = Class.forName(name, false, loader);
            readClasses.add(c);
            return c;
        } catch (ClassNotFoundException e) {
            throw new IOException("cannot restore state: class " + name + " not found", e);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object readEnum(Class<?> c, String name) throws IOException {
        try {
            return Enum.valueOf((Class) c, name);
        } catch (IllegalArgumentException e) {
            throw new IOException("cannot restore state: enum " + c.getName() + " has no constant " + name, e);
        }
    }
}
