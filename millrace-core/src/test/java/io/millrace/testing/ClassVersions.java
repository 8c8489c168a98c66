package io.millrace.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Versions of user classes, compiled at test time into class loaders of their own: the same class name
 * with other fields in each loader, as the jobs before and after an upgrade would have it. Helpers build
 * and inspect records of such classes reflectively and run code with a loader as the thread's context
 * class loader (where state backends find user classes).
 */
public final class ClassVersions {
    private ClassVersions() {}

    /** Compiles {@code sources} (class name to source text) into a new directory and loader. */
    public static URLClassLoader compile(Map<String, String> sources) {
        try {
            Path dir = Files.createTempDirectory("millrace-class-version");
            List<String> args = new ArrayList<>(List.of("-d", dir.toString(), "--release", "17", "-proc:none", "-g:none", "-implicit:none"));
            for (Map.Entry<String, String> s : sources.entrySet()) {
                Path file = dir.resolve("src").resolve(s.getKey().replace('.', '/') + ".java");
                Files.createDirectories(file.getParent());
                Files.writeString(file, s.getValue());
                args.add(file.toString());
            }
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            int status = javac.run(null, null, System.err, args.toArray(String[]::new));
            if (status != 0) {
                throw new IllegalStateException("compiling " + sources.keySet() + " failed with status " + status);
            }
            return new URLClassLoader(new URL[] {dir.toUri().toURL()}, ClassVersions.class.getClassLoader());
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A new record of class {@code className} from {@code loader}, components in declaration order. */
    public static Object record(ClassLoader loader, String className, Object... components) {
        try {
            Class<?> c = Class.forName(className, true, loader);
            RecordComponent[] rc = c.getRecordComponents();
            Class<?>[] types = new Class<?>[rc.length];
            for (int i = 0; i < rc.length; i++) {
                types[i] = rc[i].getType();
            }
            Constructor<?> constructor = c.getDeclaredConstructor(types);
            constructor.setAccessible(true);
            return constructor.newInstance(components);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create " + className, e);
        }
    }

    /** The enum constant {@code name} of {@code className} from {@code loader}. */
    public static Object constant(ClassLoader loader, String className, String name) {
        try {
            for (Object c : Class.forName(className, true, loader).getEnumConstants()) {
                if (((Enum<?>) c).name().equals(name)) {
                    return c;
                }
            }
            throw new IllegalArgumentException(className + " has no constant " + name);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Component {@code name} of a record. */
    public static Object component(Object record, String name) {
        try {
            for (RecordComponent rc : record.getClass().getRecordComponents()) {
                if (rc.getName().equals(name)) {
                    rc.getAccessor().setAccessible(true);
                    return rc.getAccessor().invoke(record);
                }
            }
            throw new IllegalArgumentException(record.getClass().getName() + " has no component " + name);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs {@code action} with {@code loader} as the context class loader of this thread. */
    public static <T> T withContextLoader(ClassLoader loader, Callable<T> action) throws Exception {
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        t.setContextClassLoader(loader);
        try {
            return action.call();
        } finally {
            t.setContextClassLoader(before);
        }
    }
}
