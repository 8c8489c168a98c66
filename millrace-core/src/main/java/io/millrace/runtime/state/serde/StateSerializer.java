package io.millrace.runtime.state.serde;

import io.millrace.api.row.Row;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.lang.reflect.Array;
import java.util.HashMap;
import java.util.Map;

/**
 * Turns state keys and values into bytes and back, for both state backends (RocksDB rows, heap
 * snapshots). Every value starts with a one-byte tag, so the encoding is self-describing and
 * self-delimiting (no encoding is a prefix of another: a key can be followed by a namespace in one row
 * key). Fast paths: null, primitives and their boxes, String, primitive and object arrays, enums,
 * records (components in order, primitives untagged, recursively), {@code ArrayList}, {@code LinkedList},
 * {@code ArrayDeque}, {@code HashSet}, {@code LinkedHashSet}, {@code TreeSet}, {@code HashMap},
 * {@code LinkedHashMap}, {@code TreeMap} (natural order) and the JDK's immutable collections (their
 * class survives; other JDK list, set and map wrappers come back as ArrayList, HashSet, HashMap), and
 * plain classes with a no-argument constructor, field by field like records ({@link PlainClass}), and
 * {@link Row}s with their row type ({@link RowEncoding}). Any
 * other {@link Serializable} value goes through Java serialization, and evolves by its rules
 * ({@code serialVersionUID}); anything else is refused with {@link IllegalArgumentException}.
 *
 * <p><b>Shapes.</b> A record or enum value carries the 4-byte id of its class's {@link StoredShape};
 * the shape itself is recorded once in a {@link ShapeDictionary}. Reading looks the shape up there and
 * maps it to the class as it is now ({@link ShapeReader}): the same shape is read directly, another one
 * by component name, so record and enum classes can evolve between the job that wrote state and the one
 * that reads it. Shapes, readers and classes are cached per serializer; records are written through
 * typed accessors, so writing allocates nothing.
 *
 * <p><b>Modes.</b> {@link #forKeys} (keys, map keys, namespaces) is canonical: equal values give equal
 * bytes (sets and maps sorted by their bytes, all lists, sets and maps under one tag each, enums by
 * name), and a record whose shape changed cannot be read (a changed key would never be found again).
 * {@link #forValues} keeps iteration order and classes and allows evolution.
 *
 * <p>Not thread-safe: one instance per thread and purpose (a state's values, a backend's keys).
 */
public final class StateSerializer {
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
    static final int ENUM = 11;
    static final int ENUM_NAME = 12;
    static final int RECORD = 13;
    static final int VOID_NAMESPACE = 14;
    static final int JAVA = 15;
    static final int OBJECTS = 24;

    private static final ClassValue<StoredShape> ENUM_SHAPES = new ClassValue<>() {
        @Override
        protected StoredShape computeValue(Class<?> type) {
            return StoredShape.ofEnum(type);
        }
    };

    private final boolean canonical;
    private final ShapeDictionary shapes;
    private final String use;
    private final ClassLoader loader;
    private final String context;
    private final JdkCollections collections;
    private final RowEncoding rows = new RowEncoding();
    /** Readers of the shapes met while reading, and ids already reported to the dictionary, by id. */
    private final IntMap<ShapeReader> readers = new IntMap<>();
    private final IntMap<Boolean> reported = new IntMap<>();
    private final Map<String, Class<?>> classes = new HashMap<>();
    /** Record and plain-class objects being written, one inside the other: a cycle would never end. */
    private int plainDepth;
    /** The class of the last record or plain-class value written and its shape: checked first. */
    private Class<?> lastShapedClass;
    private RecordShape lastShape;
    private static final int MAX_PLAIN_DEPTH = 1_000;

    private StateSerializer(boolean canonical, ShapeDictionary shapes, String use, ClassLoader loader, String context) {
        this.canonical = canonical;
        this.shapes = shapes;
        this.use = use;
        this.loader = loader;
        this.context = context;
        this.collections = new JdkCollections(this, canonical);
    }

    /**
     * A serializer for the values of one state. {@code use} is the state's name, reported with each shape
     * to the dictionary; {@code context} names the state (and operator) in errors, e.g.
     * {@code "state 'totals' of operator 'sum'"}. Classes resolve through {@code loader}.
     */
    public static StateSerializer forValues(ShapeDictionary shapes, String use, ClassLoader loader, String context) {
        return new StateSerializer(false, shapes, use, loader, context);
    }

    /** A canonical serializer for keys, map keys and namespaces; see the class comment. */
    public static StateSerializer forKeys(ShapeDictionary shapes, ClassLoader loader, String context) {
        return new StateSerializer(true, shapes, null, loader, context);
    }

    /** The class loader of user classes: the current thread's context class loader, else this module's. */
    public static ClassLoader userClassLoader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : StateSerializer.class.getClassLoader();
    }

    /**
     * Fails with {@link StateSchemaException} unless values written with {@code shape} can be read with
     * the classes as they are now through {@code loader}; {@code key} applies the rules for keys. For
     * checks at restore, before any value is read.
     */
    public static void check(StoredShape shape, boolean key, ClassLoader loader, String context) {
        new ShapeReader(shape).bind(loader, key, context);
    }

    /** Appends the encoding of {@code value} (null allowed); fails naming the class of a part it cannot write. */
    public void write(Object value, ByteWriter out) {
        if (value == null) {
            out.writeByte(NULL);
            return;
        }
        Class<?> c = value.getClass();
        if (c == lastShapedClass) {
            writeFields(lastShape, value, out); // state holds many values of one record or plain class
            return;
        }
        if (c == String.class) {
            out.writeByte(STRING);
            out.writeString((String) value);
        } else if (c == Long.class) {
            out.writeByte(LONG);
            out.writeVarLong((Long) value);
        } else if (c == Integer.class) {
            out.writeByte(INT);
            out.writeVarLong((Integer) value);
        } else if (c == Double.class) {
            out.writeByte(DOUBLE);
            out.writeLong(Double.doubleToLongBits((Double) value));
        } else if (c == Boolean.class) {
            out.writeByte((Boolean) value ? TRUE : FALSE);
        } else if (value instanceof Record) {
            writeFields(shaped(c), value, out);
        } else if (value instanceof Enum<?> e) {
            writeEnum(e, out);
        } else {
            writeOther(value, c, out);
        }
    }

    /** The shape of a record or plain class, remembered as the last one written (and reported to the dictionary). */
    private RecordShape shaped(Class<?> c) {
        RecordShape shape = RecordShape.of(c);
        report(shape.stored);
        lastShapedClass = c;
        lastShape = shape;
        return shape;
    }

    /** A record's or plain class's value: tag, shape id, then its components; nesting bounded (plain objects may form cycles). */
    private void writeFields(RecordShape shape, Object value, ByteWriter out) {
        if (plainDepth >= MAX_PLAIN_DEPTH) {
            throw new IllegalArgumentException("cannot serialize " + shape.type.getName() + ": objects of records and plain classes nest more than "
                    + MAX_PLAIN_DEPTH + " deep (a cycle?); break the cycle, or make the class Serializable with its own writeObject");
        }
        out.writeByte(RECORD);
        out.writeInt(shape.id);
        plainDepth++;
        try {
            shape.writeComponents(value, out, this);
        } finally {
            plainDepth--;
        }
    }

    private void writeEnum(Enum<?> e, ByteWriter out) {
        Class<?> type = e.getDeclaringClass();
        if (canonical) {
            out.writeByte(ENUM_NAME);
            out.writeString(type.getName());
            out.writeString(e.name());
            return;
        }
        StoredShape shape = ENUM_SHAPES.get(type);
        out.writeByte(ENUM);
        out.writeInt(shape.id());
        out.writeVarInt(e.ordinal());
        report(shape);
    }

    private void writeOther(Object value, Class<?> c, ByteWriter out) {
        if (c == Float.class) {
            out.writeByte(FLOAT);
            out.writeInt(Float.floatToIntBits((Float) value));
        } else if (c == Short.class) {
            out.writeByte(SHORT);
            out.writeShort((Short) value);
        } else if (c == Byte.class) {
            out.writeByte(BYTE);
            out.writeByte((Byte) value);
        } else if (c == Character.class) {
            out.writeByte(CHAR);
            out.writeShort((Character) value);
        } else if (c == VoidNamespace.class) {
            out.writeByte(VOID_NAMESPACE);
        } else if (c.isArray()) {
            if (c.getComponentType().isPrimitive()) {
                PrimitiveArrays.write(value, out);
                return;
            }
            Object[] items = (Object[]) value;
            out.writeByte(OBJECTS);
            out.writeString(c.getComponentType().getName());
            out.writeVarInt(items.length);
            for (Object item : items) {
                write(item, out);
            }
        } else if (c == Row.class) {
            rows.write((Row) value, canonical, out);
        } else if (collections.write(value, c, out)) {
            return;
        } else if (PlainClass.is(c)) {
            writeFields(shaped(c), value, out);
        } else {
            writeJava(value, out);
        }
    }

    /**
     * Appends the start of a list of {@code size} elements, which the caller then appends with {@link #write}: the
     * bytes {@code write} gives for an {@link java.util.ArrayList} of them, so they read back as one. For holders
     * of list elements that are not a JDK list (the heap backend's list state keeps its own).
     */
    public void writeListStart(int size, ByteWriter out) {
        out.writeByte(JdkCollections.LIST);
        out.writeVarInt(size);
    }

    /**
     * Whether the value encoded at {@code bytes[at]} is a JDK list as {@link #writeListStart} starts one, whose
     * elements then follow {@link #readListSize}: so that a caller can copy a list's elements as bytes, without
     * decoding them into the classes as they are now.
     */
    public static boolean isList(byte[] bytes, int at) {
        return at < bytes.length && (bytes[at] & 0xFF) == JdkCollections.LIST;
    }

    /** Reads the start of a list that {@link #isList} recognized; returns its number of elements. */
    public int readListSize(ByteReader in) {
        int tag = in.readUnsignedByte();
        if (tag != JdkCollections.LIST) {
            throw new IllegalArgumentException("not the start of a list: tag " + tag);
        }
        return in.readVarInt();
    }

    /** Reads one value written by {@link #write} (in either mode). */
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
            case STRING: return in.readString();
            case RECORD: return reader(in.readInt()).readRecord(in, this);
            case ENUM: {
                ShapeReader r = reader(in.readInt());
                return r.constant(in.readVarInt());
            }
            case ENUM_NAME: return enumByName(in.readString(), in.readString());
            case VOID_NAMESPACE: return VoidNamespace.INSTANCE;
            case RowEncoding.TAG: return rows.read(in);
            case JAVA: return readJava(in.readBytes(in.readVarInt()));
            case OBJECTS: {
                Object[] items = (Object[]) Array.newInstance(load(in.readString()), in.readVarInt());
                for (int i = 0; i < items.length; i++) {
                    items[i] = read(in);
                }
                return items;
            }
            default:
                if (tag >= PrimitiveArrays.BYTES && tag <= PrimitiveArrays.DOUBLES) {
                    return PrimitiveArrays.read(tag, in);
                }
                if (JdkCollections.isCollectionTag(tag)) {
                    return collections.read(tag, in);
                }
                throw new IllegalStateException("unknown type tag " + tag + " at byte " + (in.position() - 1));
        }
    }

    /** Moves past one value without building it (shapes of records are looked up, classes are not needed). */
    public void skip(ByteReader in) {
        int tag = in.readUnsignedByte();
        switch (tag) {
            case NULL, FALSE, TRUE, VOID_NAMESPACE -> { }
            case BYTE -> in.skip(1);
            case SHORT, CHAR -> in.skip(2);
            case INT, LONG -> in.readVarLong();
            case FLOAT -> in.skip(4);
            case DOUBLE -> in.skip(8);
            case STRING, JAVA -> in.skip(in.readVarInt());
            case RECORD -> shapeReader(in.readInt()).skipRecord(in, this);
            case RowEncoding.TAG -> rows.skip(in);
            case ENUM -> {
                in.skip(4);
                in.readVarInt();
            }
            case ENUM_NAME -> {
                in.skip(in.readVarInt());
                in.skip(in.readVarInt());
            }
            case OBJECTS -> {
                in.skip(in.readVarInt());
                skipValues(in, in.readVarInt());
            }
            default -> {
                if (tag >= PrimitiveArrays.BYTES && tag <= PrimitiveArrays.DOUBLES) {
                    PrimitiveArrays.skip(tag, in);
                } else if (JdkCollections.isCollectionTag(tag)) {
                    int n = in.readVarInt();
                    skipValues(in, JdkCollections.isMapTag(tag) ? 2 * n : n);
                } else {
                    throw new IllegalStateException("unknown type tag " + tag + " at byte " + (in.position() - 1));
                }
            }
        }
    }

    private void skipValues(ByteReader in, int n) {
        for (int i = 0; i < n; i++) {
            skip(in);
        }
    }

    /** Reports a shape to the dictionary the first time this serializer writes it. */
    private void report(StoredShape shape) {
        if (reported.get(shape.id()) == null) {
            shapes.written(shape, use);
            reported.put(shape.id(), Boolean.TRUE);
        }
    }

    /** The reader of a shape id, bound to the current classes. */
    private ShapeReader reader(int id) {
        ShapeReader r = shapeReader(id);
        r.bind(loader, canonical, context);
        return r;
    }

    private ShapeReader shapeReader(int id) {
        ShapeReader r = readers.get(id);
        if (r == null) {
            StoredShape shape = shapes.find(id);
            if (shape == null) {
                throw new IllegalStateException((context != null ? context + ": a" : "A") + " stored value refers to type shape "
                        + Integer.toHexString(id) + ", which the schema dictionary does not hold"
                        + " (the state was restored without its dictionary)");
            }
            r = new ShapeReader(shape);
            readers.put(id, r);
        }
        return r;
    }

    private Object enumByName(String className, String name) {
        Class<?> type = load(className);
        for (Object constant : type.getEnumConstants()) {
            if (((Enum<?>) constant).name().equals(name)) {
                return constant;
            }
        }
        throw new StateSchemaException(context, "enum " + className + " has no constant '" + name + "' any more, which a stored key holds",
                "Keep the constant (it may be deprecated), " + StateSchemaException.RENAME);
    }

    private Class<?> load(String name) {
        Class<?> c = classes.get(name);
        if (c == null) {
            try {
                c = Class.forName(name, false, loader);
            } catch (ClassNotFoundException e) {
                throw new StateSchemaException(context, "class " + name + " is not on the class path any more, and stored values hold it",
                        "Keep the class, " + StateSchemaException.RENAME);
            }
            classes.put(name, c);
        }
        return c;
    }

    private void writeJava(Object value, ByteWriter out) {
        if (!(value instanceof Serializable)) {
            throw new IllegalArgumentException("cannot serialize " + value.getClass().getName() + ": state values must be"
                    + " primitives, strings, arrays, enums, records, JDK lists, sets and maps, or Serializable");
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (ObjectOutputStream objects = new ObjectOutputStream(bytes)) {
            objects.writeObject(value);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot serialize " + value.getClass().getName() + ": " + e.getMessage(), e);
        }
        out.writeByte(JAVA);
        out.writeVarInt(bytes.size());
        out.write(bytes.toByteArray());
    }

    private Object readJava(byte[] bytes) {
        try (ObjectInputStream objects = new LoaderObjectInputStream(new ByteArrayInputStream(bytes), loader)) {
            return objects.readObject();
        } catch (ClassNotFoundException e) {
            throw new StateSchemaException(context, "class " + e.getMessage() + " of a Java-serialized value is not on the class path any more",
                    "Keep the class, " + StateSchemaException.RENAME);
        } catch (IOException e) {
            throw new IllegalStateException((context != null ? context + ": " : "") + "cannot deserialize a Java-serialized value: "
                    + e.getMessage() + " (Java-serialized classes evolve by serialVersionUID)", e);
        }
    }
}
