package io.millrace.api.state;

import io.millrace.api.row.Row;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The hash of a key that decides its key group: the same for equal keys in every JVM and every Millrace and JDK
 * version, so that savepoints restore into the groups their keys were written to.
 *
 * <ul>
 *   <li>{@code String}, {@code Integer}, {@code Long}, {@code Short}, {@code Byte}, {@code Character},
 *   {@code Boolean}, {@code Double}, {@code Float}: their {@code hashCode}, which the JDK specifies.</li>
 *   <li>Enums: the hash of the constant's {@link Enum#name() name} (an enum's own {@code hashCode} is its identity,
 *   different in each JVM). Reordering constants keeps groups; renaming one moves its keys.</li>
 *   <li>Records: {@code h = 31 * h + hash(component)} over the components in declaration order, from 0, where a
 *   primitive component hashes like its box, null as 0, and any other component by these rules. The record's own
 *   {@code hashCode} is not used.</li>
 *   <li>{@link Row}s: {@link Row#hashCode()}, which is defined over the field values.</li>
 *   <li>{@link List}s: {@code h = 31 * h + hash(element)} from 1; {@link Set}s: the sum of the elements' hashes;
 *   {@link Map}s: the sum of {@code hash(key) ^ hash(value)}, the JDK's contracts with these rules for the
 *   elements.</li>
 *   <li>Any other class that overrides both {@code equals} and {@code hashCode}: its {@code hashCode}. Its
 *   documentation must promise the same value in every JVM (as {@code java.util.UUID}'s, {@code BigInteger}'s and
 *   {@code LocalDate}'s do); one computed from enums', arrays' or identity hash codes moves its keys between
 *   runs.</li>
 * </ul>
 *
 * Refused, with {@link IllegalArgumentException} naming the type and what to use instead: arrays (their equality
 * is identity: use a {@code List} or a record), classes that keep {@code Object}'s {@code hashCode} or
 * {@code equals}, and records with such a component. {@code keyBy} checks the key type when the key selector's
 * return type is known ({@link #checkKeyType}); otherwise the first key of each class is checked, once per class.
 *
 * <p>Thread-safe; the per-class rule is looked up once per class and cached.
 */
public final class KeyHash {
    private static final ClassValue<Hasher> HASHERS = new ClassValue<>() {
        @Override
        protected Hasher computeValue(Class<?> type) {
            return hasherFor(type);
        }
    };

    private KeyHash() {}

    /**
     * The key hash of {@code key} (not null). Called for every keyed record: strings, longs and integers are
     * recognised first, without a lookup or allocation. Fails with {@link IllegalArgumentException} for a refused
     * key class.
     */
    public static int of(Object key) {
        Class<?> c = key.getClass();
        if (c == String.class) {
            return ((String) key).hashCode();
        }
        if (c == Long.class) {
            return ((Long) key).hashCode();
        }
        if (c == Integer.class) {
            return ((Integer) key).hashCode();
        }
        return HASHERS.get(c).hash(key);
    }

    /**
     * Fails with {@link IllegalArgumentException} when no key of a declared type {@code type} can have a key hash:
     * an array, a final class (records and enums included) refused by the rules above, a record with a component of
     * such a type. Interfaces and non-final classes pass: their keys' classes are checked as they come.
     * {@code where} names the place in the message, e.g. {@code "the key selector of keyBy"}.
     */
    public static void checkKeyType(Class<?> type, String where) {
        String refusal = declaredRefusal(type, new HashSet<>());
        if (refusal != null) {
            throw new IllegalArgumentException(where + " returns " + describe(type) + ", which cannot be a key: " + refusal);
        }
    }

    private static int hashOrZero(Object value) {
        return value == null ? 0 : of(value);
    }

    private static String describe(Class<?> type) {
        return type.isArray() ? "the array type " + type.getComponentType().getTypeName() + "[]" : type.getName();
    }

    /** Why keys of exactly class {@code c} cannot be hashed, or null if they can. */
    private static String refusal(Class<?> c, Set<Class<?>> visiting) {
        if (c.isArray()) {
            return "arrays are equal only to themselves and hash by identity; use a List (List.of(...)) or a record of the elements";
        }
        if (Enum.class.isAssignableFrom(c) || Row.class == c || List.class.isAssignableFrom(c)
                || Set.class.isAssignableFrom(c) || Map.class.isAssignableFrom(c)) {
            return null;
        }
        if (c.isRecord()) {
            if (!visiting.add(c)) {
                return null;
            }
            for (RecordComponent rc : c.getRecordComponents()) {
                String r = declaredRefusal(rc.getType(), visiting);
                if (r != null) {
                    return "its component '" + rc.getName() + "' is " + describe(rc.getType()) + ": " + r;
                }
            }
            return null;
        }
        boolean ownHash = declaringClass(c, "hashCode") != Object.class;
        boolean ownEquals = declaringClass(c, "equals", Object.class) != Object.class;
        if (ownHash && ownEquals) {
            return null;
        }
        return (ownHash ? "it overrides hashCode but not equals" : ownEquals ? "it overrides equals but not hashCode"
                : "it keeps Object's equals and hashCode, so equal keys hash differently in each JVM (by identity)")
                + "; use a record, a String or a number, or give " + (c.getSimpleName().isEmpty() ? c.getName() : c.getSimpleName())
                + " equals and hashCode over its values";
    }

    /** As {@link #refusal}, for a declared type whose values may be of subclasses: only what no subclass can fix. */
    private static String declaredRefusal(Class<?> t, Set<Class<?>> visiting) {
        if (t.isPrimitive()) {
            return null;
        }
        if (t.isArray() || t.isRecord() || Enum.class.isAssignableFrom(t) || Modifier.isFinal(t.getModifiers())) {
            return refusal(t, visiting);
        }
        return null;
    }

    private static Class<?> declaringClass(Class<?> c, String name, Class<?>... parameters) {
        try {
            return c.getMethod(name, parameters).getDeclaringClass();
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(c.getName() + " has no public " + name, e);
        }
    }

    private static Hasher hasherFor(Class<?> c) {
        String refusal = refusal(c, new HashSet<>());
        if (refusal != null) {
            return new Refused(describe(c) + " cannot be a key: " + refusal);
        }
        if (Enum.class.isAssignableFrom(c)) {
            return key -> ((Enum<?>) key).name().hashCode();
        }
        if (c.isRecord()) {
            try {
                return new RecordHasher(c);
            } catch (IllegalArgumentException e) {
                return new Refused(e.getMessage());
            }
        }
        if (List.class.isAssignableFrom(c)) {
            return key -> {
                int h = 1;
                for (Object e : (List<?>) key) {
                    h = 31 * h + hashOrZero(e);
                }
                return h;
            };
        }
        if (Set.class.isAssignableFrom(c)) {
            return key -> {
                int h = 0;
                for (Object e : (Set<?>) key) {
                    h += hashOrZero(e);
                }
                return h;
            };
        }
        if (Map.class.isAssignableFrom(c)) {
            return key -> {
                int h = 0;
                for (Map.Entry<?, ?> e : ((Map<?, ?>) key).entrySet()) {
                    h += hashOrZero(e.getKey()) ^ hashOrZero(e.getValue());
                }
                return h;
            };
        }
        return Object::hashCode; // the JDK's boxes, Row, and classes with their own equals and hashCode
    }

    @FunctionalInterface
    private interface Hasher {
        int hash(Object key);
    }

    private record Refused(String message) implements Hasher {
        @Override
        public int hash(Object key) {
            throw new IllegalArgumentException(message);
        }
    }

    /** Combines the components' hashes through one (Object)int handle per component, so primitives are not boxed. */
    private static final class RecordHasher implements Hasher {
        private static final MethodHandle HASH_OR_ZERO;
        private static final Map<Class<?>, MethodHandle> PRIMITIVE_HASHES;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                HASH_OR_ZERO = lookup.findStatic(KeyHash.class, "hashOrZero", MethodType.methodType(int.class, Object.class));
                PRIMITIVE_HASHES = Map.of(
                        int.class, lookup.findStatic(Integer.class, "hashCode", MethodType.methodType(int.class, int.class)),
                        long.class, lookup.findStatic(Long.class, "hashCode", MethodType.methodType(int.class, long.class)),
                        short.class, lookup.findStatic(Short.class, "hashCode", MethodType.methodType(int.class, short.class)),
                        byte.class, lookup.findStatic(Byte.class, "hashCode", MethodType.methodType(int.class, byte.class)),
                        char.class, lookup.findStatic(Character.class, "hashCode", MethodType.methodType(int.class, char.class)),
                        boolean.class, lookup.findStatic(Boolean.class, "hashCode", MethodType.methodType(int.class, boolean.class)),
                        float.class, lookup.findStatic(Float.class, "hashCode", MethodType.methodType(int.class, float.class)),
                        double.class, lookup.findStatic(Double.class, "hashCode", MethodType.methodType(int.class, double.class)));
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final MethodHandle[] components;

        RecordHasher(Class<?> type) {
            RecordComponent[] rc = type.getRecordComponents();
            components = new MethodHandle[rc.length];
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            for (int i = 0; i < rc.length; i++) {
                Class<?> t = rc[i].getType();
                try {
                    Method accessor = rc[i].getAccessor();
                    accessor.setAccessible(true);
                    MethodHandle get = lookup.unreflect(accessor);
                    MethodHandle hash = t.isPrimitive() ? PRIMITIVE_HASHES.get(t) : HASH_OR_ZERO;
                    get = t.isPrimitive() ? get : get.asType(MethodType.methodType(Object.class, type));
                    components[i] = MethodHandles.filterReturnValue(get, hash).asType(MethodType.methodType(int.class, Object.class));
                } catch (ReflectiveOperationException | RuntimeException e) {
                    throw new IllegalArgumentException("cannot hash keys of record " + type.getName() + ": its component '"
                            + rc[i].getName() + "' is not accessible (" + e + "); make the record public or open its package", e);
                }
            }
        }

        @Override
        public int hash(Object key) {
            int h = 0;
            try {
                for (MethodHandle c : components) {
                    h = 31 * h + (int) c.invokeExact(key);
                }
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException("hashing key " + key.getClass().getName() + " failed", t);
            }
            return h;
        }
    }
}
