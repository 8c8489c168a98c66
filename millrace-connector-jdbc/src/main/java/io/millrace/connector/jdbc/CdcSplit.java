package io.millrace.connector.jdbc;

import io.millrace.api.source.DataCodec;
import io.millrace.api.source.SourceSplit;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * How far a change data capture source has read its replication slot; stored in checkpoints.
 *
 * <p>Before the snapshot ({@code snapshotDone} false) there is nothing more to it: the reader takes a new snapshot.
 * After it, {@code committedEnd} is the end LSN of the last transaction whose changes were all emitted (for the
 * snapshot: the slot's consistent point), and, when a checkpoint fell inside a transaction, {@code openCommitLsn} is
 * that transaction's commit LSN and {@code openChanges} the number of its change messages already emitted; 0 and 0
 * otherwise. A restored reader streams from {@code committedEnd}, skips every transaction that committed before it
 * and the first {@code openChanges} changes of the open one, so that nothing is emitted twice.
 */
public record CdcSplit(String slot, boolean snapshotDone, long committedEnd, long openCommitLsn, long openChanges) implements SourceSplit {
    public CdcSplit {
        if (slot == null || slot.isEmpty()) {
            throw new IllegalArgumentException("a CDC split needs a slot name");
        }
    }

    /** A split that starts with a snapshot. */
    static CdcSplit fresh(String slot) {
        return new CdcSplit(slot, false, 0, 0, 0);
    }

    @Override
    public String splitId() {
        return "pg-slot-" + slot;
    }

    /** Version 1: the fields in declaration order. */
    static final class Codec extends DataCodec<CdcSplit> {
        private static final long serialVersionUID = 1L;

        @Override
        public int version() {
            return 1;
        }

        @Override
        protected void write(CdcSplit s, DataOutputStream out) throws IOException {
            out.writeUTF(s.slot());
            out.writeBoolean(s.snapshotDone());
            out.writeLong(s.committedEnd());
            out.writeLong(s.openCommitLsn());
            out.writeLong(s.openChanges());
        }

        @Override
        protected CdcSplit read(int version, DataInputStream in) throws IOException {
            return new CdcSplit(in.readUTF(), in.readBoolean(), in.readLong(), in.readLong(), in.readLong());
        }
    }
}
