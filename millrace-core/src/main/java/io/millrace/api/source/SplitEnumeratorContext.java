package io.millrace.api.source;

import io.millrace.api.time.Clock;
import java.util.List;

/**
 * What a {@link SplitEnumerator} may do: hand splits to a subtask, take them away, and tell a subtask it will get no
 * more. Calls are only legal on the coordinator thread (from the enumerator's own methods); each call reaches the
 * subtask as a mail, in the order of the calls.
 */
public interface SplitEnumeratorContext<S extends SourceSplit> {
    /** Number of source subtasks (readers); subtasks are numbered 0 to {@code parallelism() - 1}. */
    int parallelism();

    /** Name of the source operator, for error messages. */
    String sourceName();

    Clock clock();

    /**
     * The subtask a split is given to unless the enumerator has its own rule: the hash of the split id modulo the
     * parallelism, the same in every run and every JVM.
     */
    default int defaultOwner(String splitId) {
        int h = 0;
        for (int i = 0; i < splitId.length(); i++) {
            h = 31 * h + splitId.charAt(i);
        }
        return Math.floorMod(h, parallelism());
    }

    /** Hands splits to a subtask's reader ({@link SourceReader#addSplits}). */
    void assignSplits(int subtask, List<S> splits);

    /** Takes splits away from a subtask's reader ({@link SourceReader#removeSplits}). */
    void removeSplits(int subtask, List<String> splitIds);

    /** Tells a subtask's reader that it will get no more splits ({@link SourceReader#noMoreSplits}). */
    void noMoreSplits(int subtask);
}
