package io.millrace.runtime.checkpoint;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** File operations that survive a crash of the process or the machine: synced writes, atomic renames. */
final class DurableFiles {
    private static final boolean DIRECTORY_SYNC_UNSUPPORTED = File.separatorChar == '\\';

    private DurableFiles() {}

    /**
     * Makes {@code target} appear with exactly {@code content} or not at all: writes {@code <target>.tmp},
     * syncs it, renames it atomically over {@code target} and syncs the directory.
     */
    static void writeAtomically(Path target, byte[] content) throws IOException {
        Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(
                temporary, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            ByteBuffer bytes = ByteBuffer.wrap(content);
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(true);
        }
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
        syncDirectory(target.getParent());
    }

    /** Copies {@code source} to {@code target} (which must not exist) and syncs the copy. */
    static void copySynced(Path source, Path target) throws IOException {
        Files.copy(source, target);
        try (FileChannel channel = FileChannel.open(target, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
    }

    /** Makes the entries of {@code directory} (created, renamed, deleted files) durable. */
    static void syncDirectory(Path directory) throws IOException {
        if (DIRECTORY_SYNC_UNSUPPORTED) {
            return;
        }
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    /** Deletes {@code directory} and everything in it; nothing happens if it does not exist. */
    static void deleteTree(Path directory) throws IOException {
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(directory)) {
            paths = walk.sorted(Comparator.reverseOrder()).toList();
        } catch (NoSuchFileException e) {
            return;
        }
        for (Path path : paths) {
            Files.deleteIfExists(path);
        }
    }
}
