package io.millrace.connector.file;

import io.millrace.api.sink.Committer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Commits the parts of a {@link TransactionalFileSink} by renaming each pending file to its final name
 * in one atomic step, then forcing the directories to the disk. Idempotent: a part whose final file
 * exists and whose pending file does not was committed before. Called by the sink subtask's thread.
 */
final class PartCommitter implements Committer<PendingPart> {
    /**
     * @throws IllegalStateException naming both paths if a part has neither a pending nor a final file
     *     (its output is lost) or both (the final name is taken by output of another run)
     */
    @Override
    public void commit(List<PendingPart> parts) throws Exception {
        Set<Path> touched = new LinkedHashSet<>();
        try {
            for (PendingPart part : parts) {
                Path pending = Path.of(part.pendingPath());
                Path target = Path.of(part.finalPath());
                boolean isPending = Files.exists(pending);
                boolean isCommitted = Files.exists(target);
                if (isPending && !isCommitted) {
                    Files.move(pending, target, StandardCopyOption.ATOMIC_MOVE);
                    touched.add(target.getParent());
                    touched.add(pending.getParent());
                } else if (isPending) {
                    throw new IllegalStateException("cannot commit " + pending + ": " + target
                            + " already exists, written by an earlier run for the same checkpoint id;"
                            + " move it away or write to another directory or part prefix");
                } else if (!isCommitted) {
                    throw new IllegalStateException("cannot commit a part: neither the pending file " + pending
                            + " nor the committed file " + target + " exists, so the output of that checkpoint is lost");
                }
            }
        } finally {
            for (Path dir : touched) {
                StagingArea.sync(dir);
            }
        }
    }
}
