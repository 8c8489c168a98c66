package io.millrace.runtime.state.serde;

import java.io.Externalizable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which classes besides records the serializer writes field by field, like records (a "plain class",
 * what Flink calls a POJO): a concrete, non-JDK class with a no-argument constructor (any access), whose
 * instance fields — its own and its superclasses', superclass first — are neither final nor shadowed, and
 * which does not customize Java serialization ({@code writeObject}, {@code readObject},
 * {@code writeReplace}, {@code readResolve}, {@link Externalizable}). Transient and static fields are not
 * written; a value read back gets them from its no-argument constructor. Any other class goes through Java
 * serialization if it is {@link java.io.Serializable}. Decided once per class; thread-safe.
 */
final class PlainClass {
    private static final Field[] NOT_PLAIN = new Field[0];
    private static final Set<String> SERIALIZATION_HOOKS = Set.of("writeObject", "readObject", "readObjectNoData", "writeReplace", "readResolve");
    private static final ClassValue<Field[]> FIELDS = new ClassValue<>() {
        @Override
        protected Field[] computeValue(Class<?> type) {
            return fieldsOf(type);
        }
    };

    private PlainClass() {}

    /** Whether values of {@code type} are written field by field. */
    static boolean is(Class<?> type) {
        return FIELDS.get(type) != NOT_PLAIN;
    }

    /** The fields written, in order (accessible); fails if {@code type} is not a plain class. */
    static Field[] fields(Class<?> type) {
        Field[] fields = FIELDS.get(type);
        if (fields == NOT_PLAIN) {
            throw new IllegalArgumentException(type.getName() + " is not a class the serializer writes field by field");
        }
        return fields;
    }

    private static Field[] fieldsOf(Class<?> type) {
        if (type.isPrimitive() || type.isArray() || type.isInterface() || type.isEnum() || type.isRecord() || isJdk(type)
                || type.isAnonymousClass() || type.isSynthetic() || Modifier.isAbstract(type.getModifiers())
                || (type.isMemberClass() && !Modifier.isStatic(type.getModifiers()))
                || Externalizable.class.isAssignableFrom(type) || !hasNoArgConstructor(type)) {
            return NOT_PLAIN;
        }
        List<Class<?>> hierarchy = new ArrayList<>();
        for (Class<?> c = type; c != Object.class; c = c.getSuperclass()) {
            if (isJdk(c) || hasSerializationHook(c)) {
                return NOT_PLAIN;
            }
            hierarchy.add(0, c);
        }
        List<Field> fields = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Class<?> c : hierarchy) {
            for (Field f : c.getDeclaredFields()) {
                int m = f.getModifiers();
                if (Modifier.isStatic(m) || Modifier.isTransient(m) || f.isSynthetic()) {
                    continue;
                }
                if (Modifier.isFinal(m) || !names.add(f.getName())) {
                    return NOT_PLAIN;
                }
                try {
                    f.setAccessible(true);
                } catch (RuntimeException e) {
                    return NOT_PLAIN;
                }
                fields.add(f);
            }
        }
        return fields.toArray(new Field[0]);
    }

    private static boolean hasNoArgConstructor(Class<?> type) {
        try {
            type.getDeclaredConstructor();
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static boolean isJdk(Class<?> c) {
        String n = c.getName();
        return n.startsWith("java.") || n.startsWith("javax.") || n.startsWith("jdk.") || n.startsWith("sun.") || n.startsWith("com.sun.");
    }

    private static boolean hasSerializationHook(Class<?> c) {
        for (Method m : c.getDeclaredMethods()) {
            if (SERIALIZATION_HOOKS.contains(m.getName()) && !Modifier.isStatic(m.getModifiers())) {
                return true;
            }
        }
        return false;
    }
}
