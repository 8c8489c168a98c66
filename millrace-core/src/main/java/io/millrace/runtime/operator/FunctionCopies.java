package io.millrace.runtime.operator;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;

/**
 * Gives each subtask its own copy of a user function (through Java serialization), so that fields a
 * function sets in {@code open()}, such as state handles, are never shared between subtask threads.
 * Classes are resolved through the function's own class loader, then the calling thread's context class
 * loader: a spec of the engine may hold a lambda of a job loaded from a jar by {@code millrace run}.
 */
public final class FunctionCopies {
    private FunctionCopies() {}

    /** A deep copy of {@code function}; fails naming its class when it cannot be serialized. */
    @SuppressWarnings("unchecked")
    public static <T> T copyOf(T function) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(function);
        } catch (IOException e) {
            throw new IllegalArgumentException("user function " + function.getClass().getName()
                    + " must be serializable (each subtask runs its own copy): " + e, e);
        }
        ClassLoader loader = function.getClass().getClassLoader();
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray())) {
            @Override
            protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
                try {
                    return Class.forName(desc.getName(), false, loader);
                } catch (ClassNotFoundException e) {
                    if (context != null && context != loader) {
                        try {
                            return Class.forName(desc.getName(), false, context);
                        } catch (ClassNotFoundException notThereEither) {
                            // fall through to the default resolution
                        }
                    }
                    return super.resolveClass(desc);
                }
            }
        }) {
            return (T) in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalArgumentException("cannot copy user function " + function.getClass().getName() + ": " + e, e);
        }
    }
}
