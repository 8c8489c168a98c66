package io.millrace.runtime.state;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;

/** A record class's component types, accessors and canonical constructor, for {@link StateSerializer}. */
final class RecordShape {
    final Class<?>[] types;
    final Method[] accessors;
    final Constructor<?> constructor;

    private RecordShape(Class<?>[] types, Method[] accessors, Constructor<?> constructor) {
        this.types = types;
        this.accessors = accessors;
        this.constructor = constructor;
    }

    static RecordShape of(Class<?> c) {
        RecordComponent[] components = c.getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        Method[] accessors = new Method[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
            accessors[i] = components[i].getAccessor();
            accessors[i].setAccessible(true);
        }
        try {
            Constructor<?> constructor = c.getDeclaredConstructor(types);
            constructor.setAccessible(true);
            return new RecordShape(types, accessors, constructor);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("record " + c.getName() + " has no canonical constructor", e);
        }
    }

    Object component(Object record, int i) throws IOException {
        try {
            return accessors[i].invoke(record);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IOException("cannot read component " + accessors[i].getName() + " of " + record.getClass().getName(), e);
        }
    }

    Object create(Object[] args) throws IOException {
        try {
            return constructor.newInstance(args);
        } catch (ReflectiveOperationException e) {
            throw new IOException("cannot restore record " + constructor.getDeclaringClass().getName(), e);
        }
    }
}

