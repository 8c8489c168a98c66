package io.millrace.server;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;

/**
 * A user's job packaged as a jar: finds its main class and {@code main} method, with an error naming what is
 * missing. Used on the CLI's thread; {@link #close} releases the jar after the job's main returned.
 */
final class JobJar implements AutoCloseable {
    /** The jar, its class or its main method cannot be used; the message says which and why. */
    static final class LaunchException extends Exception {
        LaunchException(String message) {
            super(message);
        }
    }

    private final Path jar;
    private final JobClassLoader loader;

    private JobJar(Path jar, JobClassLoader loader) {
        this.jar = jar;
        this.loader = loader;
    }

    /** Opens {@code jar} in a class loader below {@code parent}. */
    static JobJar open(Path jar, ClassLoader parent, JobClassLoader.Order order) throws LaunchException {
        if (!Files.isRegularFile(jar)) {
            throw new LaunchException("job jar " + jar + " does not exist or is not a file");
        }
        try (JarFile ignored = new JarFile(jar.toFile())) {
            return new JobJar(jar, new JobClassLoader(jar.toUri().toURL(), parent, order));
        } catch (MalformedURLException e) {
            throw new LaunchException("job jar " + jar + " cannot be located: " + e.getMessage());
        } catch (IOException e) {
            throw new LaunchException("job jar " + jar + " is not a readable jar: " + e.getMessage());
        }
    }

    ClassLoader loader() {
        return loader;
    }

    /** The class named on the command line, or the jar's {@code Main-Class} when {@code className} is null. */
    String mainClassName(String className) throws LaunchException {
        if (className != null) {
            return className;
        }
        try (JarFile file = new JarFile(jar.toFile())) {
            String fromManifest = file.getManifest() == null ? null : file.getManifest().getMainAttributes().getValue("Main-Class");
            if (fromManifest == null || fromManifest.isBlank()) {
                throw new LaunchException("no --class given and job jar " + jar + " has no Main-Class in its manifest");
            }
            return fromManifest.trim();
        } catch (IOException e) {
            throw new LaunchException("job jar " + jar + " is not a readable jar: " + e.getMessage());
        }
    }

    /** The {@code public static void main(String[])} of {@code className}, loaded without initializing the class. */
    Method mainMethod(String className) throws LaunchException {
        Class<?> c;
        try {
            c = Class.forName(className, false, loader);
        } catch (ClassNotFoundException e) {
            throw new LaunchException("class " + className + " not found in job jar " + jar);
        } catch (LinkageError e) {
            throw new LaunchException("class " + className + " in job jar " + jar + " cannot be loaded: " + e);
        }
        Method main;
        try {
            main = c.getMethod("main", String[].class);
        } catch (NoSuchMethodException e) {
            main = null;
        } catch (LinkageError e) {
            throw new LaunchException("class " + className + " in job jar " + jar + " cannot be linked: " + e);
        }
        if (main == null || !Modifier.isStatic(main.getModifiers()) || main.getReturnType() != void.class) {
            throw new LaunchException("class " + className + " has no public static void main(String[] args)");
        }
        return main;
    }

    @Override
    public void close() throws IOException {
        loader.close();
    }
}
