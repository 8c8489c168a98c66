package io.millrace.runtime.operator;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Private copies of the engine's per-record classes, one per class they call into. A copy is a hidden class
 * defined from the same bytecode, so it has its own type profile: where every map operator of the JVM shares
 * {@link MapOperator#processRecord}, whose call to the user function then sees every map function at once and
 * goes through a dispatch table, the copy made for one function sees that function only, and the JIT inlines it
 * (and what it calls: the next link of the chain, itself a copy). The copy for a given pair is made once and kept
 * for as long as the class it was made for is loaded (a later job, or a restart, reuses it, compiled code and
 * all). If a copy cannot be made (no class file to read, a restricted lookup), the class itself is used.
 */
public final class ClassCopies {
    private static final ConcurrentHashMap<Class<?>, byte[]> BYTES = new ConcurrentHashMap<>();
    /** Per class a copy is made for: the constructors of the copies made for it, by copied class. */
    private static final ClassValue<ConcurrentHashMap<Class<?>, MethodHandle>> COPIES = new ClassValue<>() {
        @Override
        protected ConcurrentHashMap<Class<?>, MethodHandle> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };

    private ClassCopies() {}

    /**
     * A new instance of the copy of {@code type} made for {@code calls} (the class of what the instance calls per
     * record), constructed by the constructor taking {@code parameters} with {@code arguments}, as the interface
     * {@code as} that {@code type} implements (a copy is not a {@code type} to the type system). {@code lookup}
     * must have full privilege in {@code type}'s package.
     */
    public static <T> T newInstance(MethodHandles.Lookup lookup, Class<?> type, Class<T> as, Class<?> calls, Class<?>[] parameters,
            Object... arguments) {
        MethodHandle constructor = COPIES.get(calls).computeIfAbsent(type, t -> constructorOfCopy(lookup, t, parameters));
        try {
            return as.cast(constructor.invokeWithArguments(arguments));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("cannot construct " + type.getName(), e);
        }
    }

    /** The constructor of a new copy of {@code type}, or of {@code type} itself if no copy can be made. */
    private static MethodHandle constructorOfCopy(MethodHandles.Lookup lookup, Class<?> type, Class<?>[] parameters) {
        MethodType signature = MethodType.methodType(void.class, parameters);
        try {
            Class<?> copy = lookup.defineHiddenClass(BYTES.computeIfAbsent(type, ClassCopies::bytesOf), true).lookupClass();
            return lookup.in(copy).findConstructor(copy, signature);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            try {
                return lookup.findConstructor(type, signature);
            } catch (ReflectiveOperationException again) {
                throw new IllegalStateException("cannot construct " + type.getName(), again);
            }
        }
    }

    private static byte[] bytesOf(Class<?> type) {
        String name = type.getName();
        try (InputStream in = type.getResourceAsStream(name.substring(name.lastIndexOf('.') + 1) + ".class")) {
            if (in == null) {
                throw new IllegalStateException("no class file for " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the class file of " + name, e);
        }
    }
}
