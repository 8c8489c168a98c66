package io.millrace.runtime.checkpoint;

import java.util.ArrayList;
import java.util.List;

/** A checkpoint in progress: the acknowledgements received so far. Guarded by the coordinator's lock. */
final class PendingCheckpoint {
    final long id;
    final long triggeredAt;
    final boolean savepoint;
    private final int expected;
    private final List<SubtaskAck> acks = new ArrayList<>();

    PendingCheckpoint(long id, long triggeredAt, boolean savepoint, int expected) {
        this.id = id;
        this.triggeredAt = triggeredAt;
        this.savepoint = savepoint;
        this.expected = expected;
    }

    /** Returns true when this was the last acknowledgement needed. */
    boolean acknowledge(SubtaskAck ack) {
        acks.add(ack);
        return acks.size() == expected;
    }

    List<SubtaskAck> acks() {
        return acks;
    }
}
