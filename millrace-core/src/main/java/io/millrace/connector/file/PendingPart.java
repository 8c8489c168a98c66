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

    /** Version 1: pending path (UTF), final path (UTF). */
    static final class Codec extends io.millrace.api.source.DataCodec<PendingPart> {
        private static final long serialVersionUID = 1L;

        @Override
        public int version() {
            return 1;
        }

        @Override
        protected void write(PendingPart p, java.io.DataOutputStream out) throws java.io.IOException {
            out.writeUTF(p.pendingPath());
            out.writeUTF(p.finalPath());
        }

        @Override
        protected PendingPart read(int version, java.io.DataInputStream in) throws java.io.IOException {
            return new PendingPart(in.readUTF(), in.readUTF());
        }
    }
}
