package io.millrace.runtime.checkpoint;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where a job attempt starts: the checkpoint or savepoint it restores (none for a fresh start), and the
 * last checkpoint id already used, after which its own checkpoints are numbered.
 *
 * <p>The rule, for a checkpoint directory and an optional {@code restoreFrom}:
 * <ol>
 * <li>{@code restoreFrom} given and not the savepoint the directory last recorded: a new line starts.
 *     The savepoint is restored, and the directory records it with the first id of the line: one more
 *     than both the savepoint's id and every checkpoint id in the directory.</li>
 * <li>Otherwise, when the directory records a savepoint (because of rule 1, in this process or an
 *     earlier one): the newest intact checkpoint of that line (id at least its first id), else the
 *     savepoint itself. Older checkpoints, of an earlier line, are never used.</li>
 * <li>Otherwise the newest intact checkpoint in the directory, or a fresh start.</li>
 * </ol>
 * Damaged checkpoints are skipped with a warning naming the file, as {@link CheckpointStorage#latest} does.
 */
public record StartingPoint(Optional<CheckpointMetadata> restore, long lastUsedId, String description) {

    /** Applies the rule; {@code restoreFrom} may be null. Fails naming the path when a savepoint cannot be loaded. */
    public static StartingPoint choose(CheckpointStorage storage, Path restoreFrom, Consumer<String> warnings) throws IOException {
        Optional<RestoreLineage> line = storage.lineage();
        List<Long> completed = storage.completed();
        long newestInDirectory = completed.isEmpty() ? -1 : completed.get(completed.size() - 1);
        if (restoreFrom != null) {
            Path pointer = directoryOf(restoreFrom);
            CheckpointMetadata savepoint = storage.load(pointer.toString());
            boolean sameLine = line.isPresent() && line.get().savepoint().equals(pointer.toString())
                    && line.get().savepointId() == savepoint.checkpointId();
            if (!sameLine) {
                long first = Math.max(savepoint.checkpointId(), newestInDirectory) + 1;
                storage.recordLineage(new RestoreLineage(pointer.toString(), savepoint.checkpointId(), first));
                return new StartingPoint(Optional.of(savepoint), first - 1, describe(savepoint, pointer));
            }
            return fromLine(storage, line.get(), savepoint, newestInDirectory, warnings);
        }
        if (line.isPresent()) {
            return fromLine(storage, line.get(), null, newestInDirectory, warnings);
        }
        Optional<CheckpointMetadata> latest = storage.latest(warnings);
        return new StartingPoint(latest, newestInDirectory,
                latest.map(m -> "checkpoint " + m.checkpointId()).orElse("the beginning"));
    }

    private static StartingPoint fromLine(CheckpointStorage storage, RestoreLineage line, CheckpointMetadata savepoint,
            long newestInDirectory, Consumer<String> warnings) throws IOException {
        long lastUsed = Math.max(line.firstCheckpointId() - 1, newestInDirectory);
        List<String> skipped = new ArrayList<>();
        Optional<CheckpointMetadata> latest = storage.latest(line.firstCheckpointId(), skipped::add);
        if (latest.isPresent()) {
            skipped.forEach(warnings);
            return new StartingPoint(latest, lastUsed, "checkpoint " + latest.get().checkpointId() + " (taken after restoring "
                    + line.savepoint() + ")");
        }
        CheckpointMetadata restored = savepoint != null ? savepoint : storage.load(line.savepoint());
        String description = describe(restored, Path.of(line.savepoint()));
        for (String s : skipped) {
            int cut = s.lastIndexOf("; ");
            warnings.accept((cut < 0 ? s : s.substring(0, cut)) + "; using " + description);
        }
        return new StartingPoint(Optional.of(restored), lastUsed, description);
    }

    private static String describe(CheckpointMetadata m, Path pointer) {
        return (m.savepoint() ? "savepoint " : "checkpoint ") + m.checkpointId() + " at " + pointer;
    }

    private static Path directoryOf(Path pointer) {
        Path p = pointer.toAbsolutePath().normalize();
        return p.getFileName() != null && p.getFileName().toString().equals(CheckpointDirectory.METADATA) ? p.getParent() : p;
    }
}
