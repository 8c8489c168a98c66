package io.millrace.connector.generator;

import io.millrace.api.source.SourceSplit;

/**
 * A split of a {@link GeneratorSource}: the indices {@code next, next + stride, ...} below {@code end}.
 * A bounded source has contiguous ranges (stride 1); an unbounded source interleaves its splits
 * (split i of p starts at i with stride p, {@code end} is {@link Long#MAX_VALUE}). {@code next} is the
 * position: the index of the next record to emit.
 */
public record IndexRange(String splitId, long next, long end, long stride) implements SourceSplit {
    public IndexRange {
        if (stride < 1) {
            throw new IllegalArgumentException("stride must be at least 1, was " + stride);
        }
        if (next < 0) {
            throw new IllegalArgumentException("next must not be negative, was " + next);
        }
    }

    /** True when no index is left. */
    public boolean isDone() {
        return next >= end;
    }

    /** The same split, continued at {@code newNext}. */
    public IndexRange at(long newNext) {
        return new IndexRange(splitId, newNext, end, stride);
    }
}
