package io.millrace.runtime.state.serde;

/**
 * The primitive kinds of record components: how each is encoded without a tag, its default, and the
 * conversions a component may undergo between the shape a value was written with and the class as it is
 * now (boxing, and widening that loses nothing).
 */
final class Primitives {
    static final byte REF = 0;
    static final byte BOOLEAN = 1;
    static final byte BYTE = 2;
    static final byte SHORT = 3;
    static final byte CHAR = 4;
    static final byte INT = 5;
    static final byte LONG = 6;
    static final byte FLOAT = 7;
    static final byte DOUBLE = 8;

    private static final String[] PRIMITIVE_NAMES = {null, "boolean", "byte", "short", "char", "int", "long", "float", "double"};
    private static final String[] BOX_NAMES = {null, "java.lang.Boolean", "java.lang.Byte", "java.lang.Short",
            "java.lang.Character", "java.lang.Integer", "java.lang.Long", "java.lang.Float", "java.lang.Double"};
    private static final Object[] DEFAULTS = {null, false, (byte) 0, (short) 0, (char) 0, 0, 0L, 0f, 0d};

    private Primitives() {}

    /** The kind of a declared component type: a primitive kind, or {@link #REF} for anything else (boxes included). */
    static byte kindOf(Class<?> type) {
        return type.isPrimitive() ? kindOfName(type.getName()) : REF;
    }

    /** As {@link #kindOf}, by type name. */
    static byte kindOfName(String typeName) {
        for (byte k = BOOLEAN; k <= DOUBLE; k++) {
            if (PRIMITIVE_NAMES[k].equals(typeName)) {
                return k;
            }
        }
        return REF;
    }

    /** The primitive kind of a primitive or box type name, {@link #REF} for other types. */
    static byte unboxedKindOfName(String typeName) {
        byte k = kindOfName(typeName);
        if (k != REF) {
            return k;
        }
        for (byte b = BOOLEAN; b <= DOUBLE; b++) {
            if (BOX_NAMES[b].equals(typeName)) {
                return b;
            }
        }
        return REF;
    }

    /** The value of a primitive component that a stored value lacks (false, 0), null for references. */
    static Object defaultValue(byte kind) {
        return DEFAULTS[kind];
    }

    /** Whether every value of kind {@code from} converts to kind {@code to} without loss. */
    static boolean widens(byte from, byte to) {
        return switch (from) {
            case BYTE -> to == SHORT || to == INT || to == LONG || to == FLOAT || to == DOUBLE;
            case SHORT, CHAR -> to == INT || to == LONG || to == FLOAT || to == DOUBLE;
            case INT -> to == LONG || to == DOUBLE;
            case FLOAT -> to == DOUBLE;
            default -> false;
        };
    }

    /** A boxed primitive converted to kind {@code to}, which its kind equals or {@linkplain #widens widens} to. */
    static Object convert(Object boxed, byte to) {
        if (boxed instanceof Float f) {
            return to == DOUBLE ? Double.valueOf(f) : boxed;
        }
        if (boxed instanceof Double || boxed instanceof Boolean) {
            return boxed;
        }
        long v = boxed instanceof Character c ? c : ((Number) boxed).longValue();
        return switch (to) {
            case BYTE -> Byte.valueOf((byte) v);
            case SHORT -> Short.valueOf((short) v);
            case CHAR -> Character.valueOf((char) v);
            case INT -> Integer.valueOf((int) v);
            case LONG -> Long.valueOf(v);
            case FLOAT -> Float.valueOf(v);
            case DOUBLE -> Double.valueOf(v);
            default -> boxed;
        };
    }

    /** Reads an untagged primitive component, boxed. */
    static Object read(byte kind, ByteReader in) {
        return switch (kind) {
            case LONG -> Long.valueOf(in.readVarLong());
            case INT -> Integer.valueOf((int) in.readVarLong());
            case DOUBLE -> Double.valueOf(Double.longBitsToDouble(in.readLong()));
            case BOOLEAN -> Boolean.valueOf(in.readByte() != 0);
            case FLOAT -> Float.valueOf(Float.intBitsToFloat(in.readInt()));
            case SHORT -> Short.valueOf((short) in.readShort());
            case BYTE -> Byte.valueOf((byte) in.readByte());
            case CHAR -> Character.valueOf((char) in.readShort());
            default -> throw new IllegalArgumentException("not a primitive kind: " + kind);
        };
    }

    /** Moves past an untagged primitive component. */
    static void skip(byte kind, ByteReader in) {
        switch (kind) {
            case LONG, INT -> in.readVarLong();
            case DOUBLE -> in.skip(8);
            case FLOAT -> in.skip(4);
            case SHORT, CHAR -> in.skip(2);
            case BOOLEAN, BYTE -> in.skip(1);
            default -> throw new IllegalArgumentException("not a primitive kind: " + kind);
        }
    }
}
