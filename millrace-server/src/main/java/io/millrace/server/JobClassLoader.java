package io.millrace.server;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Loads a job's classes from its jar. Parent-first asks the server's class path first, like
 * {@code java -cp}; child-first prefers the jar, so a job can bring its own version of a library the server
 * also has. Either way the engine ({@code io.millrace.*}), the JDK and logging always come from the server,
 * so that the job and the engine share one {@code Pipeline} class. Thread-safe, as {@link URLClassLoader}.
 */
final class JobClassLoader extends URLClassLoader {
    /** Which side a class is looked up on first. */
    enum Order {
        CHILD_FIRST,
        PARENT_FIRST
    }

    private static final List<String> ALWAYS_FROM_SERVER = List.of(
            "java.", "javax.", "jdk.", "sun.", "com.sun.", "org.w3c.", "org.xml.", "io.millrace.", "org.slf4j.");

    static {
        registerAsParallelCapable();
    }

    private final Order order;

    JobClassLoader(URL jar, ClassLoader parent, Order order) {
        super("millrace-job", new URL[] {jar}, parent);
        this.order = order;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (order == Order.PARENT_FIRST || fromServer(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                try {
                    c = findClass(name);
                } catch (ClassNotFoundException notInJar) {
                    c = getParent().loadClass(name);
                }
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    @Override
    public URL getResource(String name) {
        if (order == Order.PARENT_FIRST || fromServer(name.replace('/', '.'))) {
            return super.getResource(name);
        }
        URL own = findResource(name);
        return own != null ? own : getParent().getResource(name);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        if (order == Order.PARENT_FIRST) {
            return super.getResources(name);
        }
        Set<URL> all = new LinkedHashSet<>(Collections.list(findResources(name)));
        all.addAll(Collections.list(getParent().getResources(name)));
        return Collections.enumeration(all);
    }

    private static boolean fromServer(String name) {
        for (String prefix : ALWAYS_FROM_SERVER) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
