package io.millrace.runtime.state.serde;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;

/**
 * A record class, or a plain class written field by field ({@link PlainClass}), as it is now: its
 * {@link StoredShape}, component kinds, typed accessors (primitive components are read without boxing) and
 * how to build an instance (a record's canonical constructor; a plain class's no-argument constructor, then
 * its fields set), looked up once per class. Immutable and shared by all serializers.
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
    /** A record's canonical constructor (spread over an Object[]), or a plain class's no-argument one. */
    private final MethodHandle constructor;
    /** A plain class's field setters, (Object, Object)void; null for a record. */
    private final MethodHandle[] setters;

    private RecordShape(Class<?> type) {
        this.type = type;
        this.stored = StoredShape.ofFields(type);
        this.id = stored.id();
        if (!type.isRecord()) {
            java.lang.reflect.Field[] fields = PlainClass.fields(type);
            this.kinds = new byte[fields.length];
            this.getters = new MethodHandle[fields.length];
            this.setters = new MethodHandle[fields.length];
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                for (int i = 0; i < fields.length; i++) {
                    Class<?> t = fields[i].getType();
                    kinds[i] = Primitives.kindOf(t);
                    getters[i] = lookup.unreflectGetter(fields[i]).asType(MethodType.methodType(t.isPrimitive() ? t : Object.class, Object.class));
                    setters[i] = lookup.unreflectSetter(fields[i]).asType(MethodType.methodType(void.class, Object.class, Object.class));
                }
                Constructor<?> c = type.getDeclaredConstructor();
                c.setAccessible(true);
                this.constructor = lookup.unreflectConstructor(c).asType(MethodType.methodType(Object.class));
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw new IllegalArgumentException("cannot serialize class " + type.getName()
                        + ": its fields or no-argument constructor are not accessible (" + e + ")", e);
            }
            return;
        }
        this.setters = null;
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

    /** A new instance from the component (field) values in declaration order (primitives boxed). */
    Object construct(Object[] values) {
        try {
            if (setters != null) {
                Object instance = constructor.invokeExact();
                for (int i = 0; i < setters.length; i++) {
                    setters[i].invokeExact(instance, values[i]);
                }
                return instance;
            }
            return constructor.invokeExact(values);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("constructing " + stored.label() + " " + type.getName() + " failed", t);
        }
    }
}
