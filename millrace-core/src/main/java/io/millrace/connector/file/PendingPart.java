package io.millrace.connector.file;

import java.io.Serializable;
import java.util.Objects;

/**
 * A part file of a {@link TransactionalFileSink} that is complete and durable but not yet visible: the
 * committable stored in a checkpoint. Committing it renames {@code pendingPath} to {@code finalPath}
 * (absolute paths, so that any subtask can commit it, also after a change of parallelism).
 */
public record PendingPart(String pendingPath, String finalPath) implements Serializable {
    public PendingPart {
        Objects.requireNonNull(pendingPath, "pendingPath");
        Objects.requireNonNull(finalPath, "finalPath");
    }
}
