package io.millrace.runtime.checkpoint;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The directory where savepoints go. A savepoint is a checkpoint whose {@code chk-<id>} directory is moved
 * here as {@code savepoint-<id>-<8 random hex digits>} (copied, synced and then deleted when the two
 * directories are on different file systems) before its metadata is written into it. A crash half-way leaves
 * a directory without {@code _metadata}, which is not a savepoint. Used by the coordinator thread only.
 */
final class SavepointDirectory {
    static final String PREFIX = "savepoint-";

    private final Path path;
    private final SecureRandom random = new SecureRandom();

    SavepointDirectory(Path path) {
        this.path = path;
    }

    /** Commits {@code checkpoint} as a savepoint with {@code metadata}; returns the savepoint's directory. */
    Path commit(CheckpointDirectory checkpoint, byte[] metadata) throws IOException {
        Files.createDirectories(path);
        byte[] suffix = new byte[4];
        random.nextBytes(suffix);
        Path target = path.resolve(PREFIX + checkpoint.id() + "-" + HexFormat.of().formatHex(suffix));
        boolean copied = false;
        if (Files.isDirectory(checkpoint.path())) {
            try {
                Files.move(checkpoint.path(), target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                copy(checkpoint.path(), target);
                copied = true;
            }
        } else {
            Files.createDirectory(target);
        }
        DurableFiles.writeAtomically(target.resolve(CheckpointDirectory.METADATA), metadata);
        DurableFiles.syncDirectory(path);
        if (copied) {
            DurableFiles.deleteTree(checkpoint.path());
        }
        DurableFiles.syncDirectory(checkpoint.path().getParent());
        return target;
    }

    private static void copy(Path source, Path target) throws IOException {
        Files.createDirectory(target);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(source)) {
            for (Path file : files) {
                DurableFiles.copySynced(file, target.resolve(file.getFileName()));
            }
        }
    }
}
