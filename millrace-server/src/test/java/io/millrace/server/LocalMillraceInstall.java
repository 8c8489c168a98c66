package io.millrace.server;

import io.millrace.api.Pipeline;
import io.millrace.testing.OneInputOperatorHarness;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * Puts what a job project needs of Millrace into a local Maven repository, the way {@code mvn install} lays it
 * out: the parent pom, millrace-core's pom, its jar and its test jar. The jars are the classes of this build, as
 * the test runner has them (a module's {@code target/classes} directory is packed into a jar; a jar is copied),
 * so a project built offline against the repository sees exactly the code under test. Each file is replaced in
 * one atomic move, so a concurrent reader sees the old file or the new one.
 */
final class LocalMillraceInstall {
    private LocalMillraceInstall() {}

    /** The local repository of the build that runs the tests: {@code maven.repo.local}, else ~/.m2/repository. */
    static Path localRepository() {
        String configured = System.getProperty("maven.repo.local");
        return configured != null && !configured.isBlank()
                ? Path.of(configured)
                : Path.of(System.getProperty("user.home"), ".m2", "repository");
    }

    /** Installs millrace-parent and millrace-core of version {@code version} into {@code repo}. */
    static void install(Path repo, Path sourceRoot, String version) throws IOException {
        Path parent = repo.resolve("io/millrace/millrace-parent").resolve(version);
        Path core = repo.resolve("io/millrace/millrace-core").resolve(version);
        put(sourceRoot.resolve("pom.xml"), parent.resolve("millrace-parent-" + version + ".pom"));
        put(sourceRoot.resolve("millrace-core/pom.xml"), core.resolve("millrace-core-" + version + ".pom"));
        putClasses(codeLocation(Pipeline.class), core.resolve("millrace-core-" + version + ".jar"));
        putClasses(codeLocation(OneInputOperatorHarness.class), core.resolve("millrace-core-" + version + "-tests.jar"));
    }

    /** The directory or jar that {@code type} was loaded from. */
    static Path codeLocation(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the classes of " + type.getName(), e);
        }
    }

    private static void putClasses(Path classes, Path jar) throws IOException {
        if (Files.isRegularFile(classes)) {
            put(classes, jar);
            return;
        }
        Path tmp = temporaryNextTo(jar);
        try {
            Manifest manifest = new Manifest();
            manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(tmp), manifest);
                    Stream<Path> files = Files.walk(classes)) {
                for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                    out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                    Files.copy(f, (OutputStream) out);
                    out.closeEntry();
                }
            }
            Files.move(tmp, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static void put(Path source, Path target) throws IOException {
        if (!Files.isRegularFile(source)) {
            throw new IllegalStateException("cannot install " + target.getFileName() + ": " + source + " does not exist");
        }
        if (Files.exists(target) && Files.isSameFile(source, target)) {
            return;
        }
        Path tmp = temporaryNextTo(target);
        try {
            Files.copy(source, tmp, StandardCopyOption.REPLACE_EXISTING);
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static Path temporaryNextTo(Path target) throws IOException {
        Files.createDirectories(target.getParent());
        return Files.createTempFile(target.getParent(), target.getFileName().toString(), ".part");
    }
}
