package io.millrace.rocksdb.serde;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;

/**
 * How a record class is taken apart and put together: its component accessors and canonical
 * constructor as method handles, looked up once per class. Primitive components are written without a
 * type tag (their type is known from the class); reference components carry one.
 */
final class RecordShape {
    private static final ClassValue<RecordShape> SHAPES = new ClassValue<>() {
        @Override
        protected RecordShape computeValue(Class<?> type) {
            return new RecordShape(type);
        }
    };

    final Class<?> type;
    final String[] names;
    final Class<?>[] types;
    final MethodHandle[] accessors;
    final MethodHandle constructor;

    private RecordShape(Class<?> type) {
        this.type = type;
        RecordComponent[] components = type.getRecordComponents();
        this.names = new String[components.length];
        this.types = new Class<?>[components.length];
        this.accessors = new MethodHandle[components.length];
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            for (int i = 0; i < components.length; i++) {
                names[i] = components[i].getName();
                types[i] = components[i].getType();
                var accessor = components[i].getAccessor();
                accessor.setAccessible(true);
                accessors[i] = lookup.unreflect(accessor).asType(java.lang.invoke.MethodType.methodType(Object.class, Object.class));
            }
            Constructor<?> c = type.getDeclaredConstructor(types);
            c.setAccessible(true);
            this.constructor = lookup.unreflectConstructor(c).asSpreader(Object[].class, components.length)
                    .asType(java.lang.invoke.MethodType.methodType(Object.class, Object[].class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalArgumentException("cannot serialize record " + type.getName()
                    + ": its components or canonical constructor are not accessible (" + e + ")", e);
        }
    }

    static RecordShape of(Class<?> type) {
        return SHAPES.get(type);
    }

    Object component(Object record, int i) {
        try {
            return accessors[i].invokeExact(record);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("reading component '" + names[i] + "' of " + type.getName() + " failed", t);
        }
    }

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
