package io.millrace.rocksdb;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names RocksDB working directories after the process that owns them ({@code p<pid>-<operator>-kg<a>-<b>-<random>})
 * and deletes those of processes that are gone: a process killed with SIGKILL cannot delete its own, so the
 * next process that opens a backend in the same base directory does. A directory of a live process, or
 * one not named this way, is never touched. Thread-safe.
 */
final class WorkingDirectories {
    private static final Pattern OWNED = Pattern.compile("p(\\d+)-.*");
    private static final long PID = ProcessHandle.current().pid();
    /** Base directories already cleaned by this process. */
    private static final Set<Path> CLEANED = new HashSet<>();

    private WorkingDirectories() {}

    /** Creates a new working directory under {@code base}, first deleting the leftovers of dead processes there. */
    static Path create(Path base, String prefix) throws IOException {
        Files.createDirectories(base);
        removeLeftovers(base);
        return Files.createTempDirectory(base, "p" + PID + "-" + prefix);
    }

    /** Deletes, once per base directory and process, the working directories whose owning process is gone. */
    static synchronized void removeLeftovers(Path base) throws IOException {
        if (!CLEANED.add(base.toAbsolutePath().normalize())) {
            return;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(base)) {
            for (Path entry : entries) {
                Matcher m = OWNED.matcher(entry.getFileName().toString());
                if (!m.matches() || !Files.isDirectory(entry)) {
                    continue;
                }
                long pid;
                try {
                    pid = Long.parseLong(m.group(1));
                } catch (NumberFormatException e) {
                    continue;
                }
                if (pid == PID || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    continue;
                }
                try {
                    RocksDbStore.deleteRecursively(entry);
                } catch (UncheckedIOException e) {
                    throw e.getCause();
                }
            }
        }
    }
}
