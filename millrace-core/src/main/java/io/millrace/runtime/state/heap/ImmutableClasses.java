package io.millrace.runtime.state.heap;

import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.UUID;

/**
 * Which classes of stored values cannot change after they are stored, so that a snapshot may keep a
 * reference to such a value instead of serializing it at once: strings, boxed primitives, a few JDK value
 * classes (exactly these classes, not subclasses), enums (stored by name), and records whose components are
 * all primitives or, by their declared type, such classes again. Anything else (plain classes, collections,
 * arrays, records with a component of an interface or mutable type) counts as mutable. Thread-safe.
 */
public final class ImmutableClasses {
    private static final Set<Class<?>> VALUE_CLASSES = Set.of(String.class, Boolean.class, Byte.class, Short.class,
            Character.class, Integer.class, Long.class, Float.class, Double.class, BigInteger.class, BigDecimal.class,
            UUID.class, java.time.Instant.class, java.time.Duration.class, java.time.LocalDate.class,
            java.time.LocalTime.class, java.time.LocalDateTime.class, java.time.OffsetDateTime.class,
            java.time.ZonedDateTime.class, java.time.ZoneOffset.class);

    private static final ClassValue<Boolean> IMMUTABLE = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return immutable(type, new IdentityHashMap<>());
        }
    };

    private ImmutableClasses() {}

    /** Whether {@code value} (null counts) can never change. */
    public static boolean isImmutable(Object value) {
        return value == null || IMMUTABLE.get(value.getClass());
    }

    /**
     * Whether every instance of {@code type} (its runtime class) is immutable. {@code visiting} holds the
     * records being checked, so a record that refers to itself is judged by its other components.
     */
    private static boolean immutable(Class<?> type, IdentityHashMap<Class<?>, Boolean> visiting) {
        if (type.isPrimitive() || VALUE_CLASSES.contains(type) || type.isEnum()
                || (type.getSuperclass() != null && type.getSuperclass().isEnum())) {
            return true;
        }
        if (!type.isRecord()) {
            return false;
        }
        if (visiting.put(type, Boolean.TRUE) != null) {
            return true;
        }
        for (RecordComponent c : type.getRecordComponents()) {
            Class<?> declared = c.getType();
            boolean closed = declared.isPrimitive() || declared.isRecord() || declared.isEnum()
                    || Modifier.isFinal(declared.getModifiers());
            if (!closed || !immutable(declared, visiting)) {
                return false;
            }
        }
        return true;
    }
}
