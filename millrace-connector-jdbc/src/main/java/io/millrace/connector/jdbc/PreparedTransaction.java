package io.millrace.connector.jdbc;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * A transaction of the exactly-once append sink, prepared at a checkpoint barrier ({@code PREPARE TRANSACTION}):
 * its rows are durable on the server and invisible until {@code COMMIT PREPARED} with its global id, which the
 * committer runs once the checkpoint is complete. Stored in checkpoints by {@link Codec}.
 */
public record PreparedTransaction(String gid) implements java.io.Serializable {

    /** Version 1: the global id (UTF). */
    static final class Codec extends io.millrace.api.source.DataCodec<PreparedTransaction> {
        private static final long serialVersionUID = 1L;

        @Override
        public int version() {
            return 1;
        }

        @Override
        protected void write(PreparedTransaction t, DataOutputStream out) throws IOException {
            out.writeUTF(t.gid());
        }

        @Override
        protected PreparedTransaction read(int version, DataInputStream in) throws IOException {
            return new PreparedTransaction(in.readUTF());
        }
    }
}
