package io.millrace.runtime.state.serde;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;

/**
 * A record class as it is now: its {@link StoredShape}, component kinds, typed accessors (primitive
 * components are read without boxing) and canonical constructor, looked up once per class. Immutable and
 * shared by all serializers.
 */
final class RecordShape {
    private static final ClassValue<RecordShape> SHAPES = new ClassValue<>() {
        @Override
        protected RecordShape computeValue(Class<?> type) {
            return new RecordShape(type);
        }
    };

    final Class<?> type;
    final StoredShape stored;
    final int id;
    /** Per component: a {@link Primitives} kind, {@link Primitives#REF} for references. */
    final byte[] kinds;
    private final MethodHandle[] getters;
    private final MethodHandle constructor;

    private RecordShape(Class<?> type) {
        this.type = type;
        this.stored = StoredShape.ofRecord(type);
        this.id = stored.id();
        RecordComponent[] components = type.getRecordComponents();
        this.kinds = new byte[components.length];
        this.getters = new MethodHandle[components.length];
        Class<?>[] types = new Class<?>[components.length];
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                kinds[i] = Primitives.kindOf(types[i]);
                Method accessor = components[i].getAccessor();
                accessor.setAccessible(true);
                Class<?> returned = types[i].isPrimitive() ? types[i] : Object.class;
                getters[i] = lookup.unreflect(accessor).asType(MethodType.methodType(returned, Object.class));
            }
            Constructor<?> c = type.getDeclaredConstructor(types);
            c.setAccessible(true);
            this.constructor = lookup.unreflectConstructor(c).asSpreader(Object[].class, components.length)
                    .asType(MethodType.methodType(Object.class, Object[].class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalArgumentException("cannot serialize record " + type.getName()
                    + ": its components or canonical constructor are not accessible (" + e + ")", e);
        }
    }

    static RecordShape of(Class<?> type) {
        return SHAPES.get(type);
    }

    int size() {
        return kinds.length;
    }

    /** Writes the components in order: primitives untagged, references through {@code values}. */
    void writeComponents(Object record, ByteWriter out, StateSerializer values) {
        int i = 0;
        try {
            for (; i < kinds.length; i++) {
                MethodHandle g = getters[i];
                switch (kinds[i]) {
                    case Primitives.LONG -> out.writeVarLong((long) g.invokeExact(record));
                    case Primitives.INT -> out.writeVarLong((int) g.invokeExact(record));
                    case Primitives.DOUBLE -> out.writeLong(Double.doubleToLongBits((double) g.invokeExact(record)));
                    case Primitives.BOOLEAN -> out.writeByte((boolean) g.invokeExact(record) ? 1 : 0);
                    case Primitives.FLOAT -> out.writeInt(Float.floatToIntBits((float) g.invokeExact(record)));
                    case Primitives.SHORT -> out.writeShort((short) g.invokeExact(record));
                    case Primitives.BYTE -> out.writeByte((byte) g.invokeExact(record));
                    case Primitives.CHAR -> out.writeShort((char) g.invokeExact(record));
                    default -> values.write((Object) g.invokeExact(record), out);
                }
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("reading component '" + stored.name(i) + "' of " + type.getName() + " failed", t);
        }
    }

    /** A new instance from the component values in declaration order (primitives boxed). */
    Object construct(Object[] values) {
        try {
            return constructor.invokeExact(values);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("constructing record " + type.getName() + " failed", t);
        }
    }
}
