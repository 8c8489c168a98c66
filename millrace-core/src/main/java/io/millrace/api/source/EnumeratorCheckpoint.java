package io.millrace.api.source;

/**
 * An enumerator's state as a checkpoint stored it: the bytes its {@link SplitEnumerator#snapshotState} returned and
 * the {@link SplitEnumerator#stateVersion()} they were written in.
 */
public record EnumeratorCheckpoint(int version, byte[] state) {
    public EnumeratorCheckpoint {
        if (state == null) {
            throw new IllegalArgumentException("enumerator state must not be null");
        }
    }
}
