package io.millrace.runtime.state.serde;

/** Tagged primitive arrays for {@link StateSerializer}: a variable-length count, then fixed-width elements. */
final class PrimitiveArrays {
    static final int BYTES = 16;
    static final int BOOLEANS = 17;
    static final int SHORTS = 18;
    static final int CHARS = 19;
    static final int INTS = 20;
    static final int LONGS = 21;
    static final int FLOATS = 22;
    static final int DOUBLES = 23;

    private PrimitiveArrays() {}

    /** Writes a primitive array with its tag. */
    static void write(Object array, ByteWriter out) {
        if (array instanceof byte[] a) {
            out.writeByte(BYTES);
            out.writeVarInt(a.length);
            out.write(a);
        } else if (array instanceof long[] a) {
            out.writeByte(LONGS);
            out.writeVarInt(a.length);
            for (long v : a) {
                out.writeLong(v);
            }
        } else if (array instanceof double[] a) {
            out.writeByte(DOUBLES);
            out.writeVarInt(a.length);
            for (double v : a) {
                out.writeLong(Double.doubleToLongBits(v));
            }
        } else if (array instanceof int[] a) {
            out.writeByte(INTS);
            out.writeVarInt(a.length);
            for (int v : a) {
                out.writeInt(v);
            }
        } else if (array instanceof float[] a) {
            out.writeByte(FLOATS);
            out.writeVarInt(a.length);
            for (float v : a) {
                out.writeInt(Float.floatToIntBits(v));
            }
        } else if (array instanceof short[] a) {
            out.writeByte(SHORTS);
            out.writeVarInt(a.length);
            for (short v : a) {
                out.writeShort(v);
            }
        } else if (array instanceof char[] a) {
            out.writeByte(CHARS);
            out.writeVarInt(a.length);
            for (char v : a) {
                out.writeShort(v);
            }
        } else {
            boolean[] a = (boolean[]) array;
            out.writeByte(BOOLEANS);
            out.writeVarInt(a.length);
            for (boolean v : a) {
                out.writeByte(v ? 1 : 0);
            }
        }
    }

    /** Reads the array after its tag. */
    static Object read(int tag, ByteReader in) {
        int n = in.readVarInt();
        switch (tag) {
            case BYTES:
                return in.readBytes(n);
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
                    a[i] = Double.longBitsToDouble(in.readLong());
                }
                return a;
            }
            case INTS: {
                int[] a = new int[n];
                for (int i = 0; i < n; i++) {
                    a[i] = in.readInt();
                }
                return a;
            }
            case FLOATS: {
                float[] a = new float[n];
                for (int i = 0; i < n; i++) {
                    a[i] = Float.intBitsToFloat(in.readInt());
                }
                return a;
            }
            case SHORTS: {
                short[] a = new short[n];
                for (int i = 0; i < n; i++) {
                    a[i] = (short) in.readShort();
                }
                return a;
            }
            case CHARS: {
                char[] a = new char[n];
                for (int i = 0; i < n; i++) {
                    a[i] = (char) in.readShort();
                }
                return a;
            }
            default: {
                boolean[] a = new boolean[n];
                for (int i = 0; i < n; i++) {
                    a[i] = in.readByte() != 0;
                }
                return a;
            }
        }
    }

    /** Moves past the array after its tag. */
    static void skip(int tag, ByteReader in) {
        int n = in.readVarInt();
        int width = switch (tag) {
            case BYTES, BOOLEANS -> 1;
            case SHORTS, CHARS -> 2;
            case INTS, FLOATS -> 4;
            default -> 8;
        };
        in.skip(width * n);
    }
}
