package io.millrace.runtime.state;

/** The key groups [start, end] (both inclusive) owned by one subtask. */
public record KeyGroupRange(int start, int end) implements java.io.Serializable {
    public KeyGroupRange {
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("bad key group range [" + start + ", " + end + "]");
        }
    }

    public int size() {
        return end - start + 1;
    }

    public boolean contains(int keyGroup) {
        return keyGroup >= start && keyGroup <= end;
    }
}
