package io.millrace.runtime.checkpoint;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One checkpoint's directory under the checkpoint root: {@code chk-<id>}. It is complete once it holds
 * {@code _metadata}; without it, it is in progress or abandoned. {@code _metadata.tmp} alone means the
 * process died while committing.
 */
record CheckpointDirectory(long id, Path path) {
    static final String PREFIX = "chk-";
    static final String METADATA = "_metadata";
    static final String PENDING_METADATA = METADATA + ".tmp";

    static CheckpointDirectory of(Path root, long id) {
        if (id < 0) {
            throw new IllegalArgumentException("checkpoint id must not be negative: " + id);
        }
        return new CheckpointDirectory(id, root.resolve(PREFIX + id));
    }

    /** The checkpoint directory {@code path} names, if its name is {@code chk-<id>}. */
    static Optional<CheckpointDirectory> parse(Path path) {
        String name = path.getFileName().toString();
        if (!name.startsWith(PREFIX) || name.length() == PREFIX.length() || name.length() > PREFIX.length() + 18) {
            return Optional.empty();
        }
        for (int i = PREFIX.length(); i < name.length(); i++) {
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return Optional.empty();
            }
        }
        return Optional.of(new CheckpointDirectory(Long.parseLong(name.substring(PREFIX.length())), path));
    }

    String name() {
        return path.getFileName().toString();
    }

    Path metadataFile() {
        return path.resolve(METADATA);
    }

    boolean isComplete() {
        return Files.isRegularFile(metadataFile());
    }

    boolean isCommitPending() {
        return !isComplete() && Files.exists(path.resolve(PENDING_METADATA));
    }
}
