package io.millrace.connector.generator;

import io.millrace.api.source.InputStatus;
import io.millrace.api.source.ReaderOutput;
import io.millrace.api.source.SourceReader;
import io.millrace.connector.pacing.RateLimit;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the index ranges of one subtask. Several splits are served in turn, one per poll, so that
 * unbounded splits all make progress. Called by the subtask's thread only.
 */
final class GeneratorReader<T> implements SourceReader<T, IndexRange> {
    private final GeneratorFunction<T> function;
    private final IndexTimestamps timestamps;
    private final RateLimit limit;
    private final List<Cursor<T>> cursors = new ArrayList<>();
    private int turn;
    private boolean noMoreSplits;

    /** {@code limit} null: unlimited rate; {@code timestamps} null: records without timestamp. */
    GeneratorReader(GeneratorFunction<T> function, IndexTimestamps timestamps, RateLimit limit) {
        this.function = function;
        this.timestamps = timestamps;
        this.limit = limit;
    }

    /** A split being read; {@code next} advances as records are emitted. */
    private static final class Cursor<T> {
        final IndexRange split;
        long next;
        ReaderOutput<T> outOf;
        ReaderOutput.SplitOutput<T> out;

        Cursor(IndexRange split) {
            this.split = split;
            this.next = split.next();
        }
    }

    @Override
    public void addSplits(List<IndexRange> splits) {
        for (IndexRange split : splits) {
            cursors.add(new Cursor<>(split));
        }
    }

    @Override
    public void noMoreSplits() {
        noMoreSplits = true;
    }

    @Override
    public long nanosUntilAvailable() {
        return limit == null || cursors.isEmpty() ? -1 : limit.nanosUntilChunk();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<T> output) {
        if (cursors.isEmpty()) {
            return noMoreSplits ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
        }
        turn = turn % cursors.size();
        Cursor<T> c = cursors.get(turn);
        long left = c.next >= c.split.end() ? 0 : (c.split.end() - 1 - c.next) / c.split.stride() + 1;
        long n = Math.min(GeneratorSource.BATCH, left);
        if (limit != null) {
            n = limit.permits(n);
            if (n == 0 && left > 0) {
                return InputStatus.NOTHING_AVAILABLE;
            }
        }
        emit(c, n, output);
        if (c.next >= c.split.end()) {
            output.releaseSplit(c.split.splitId());
            cursors.remove(turn);
        } else {
            turn++;
        }
        if (cursors.isEmpty() && noMoreSplits) {
            return InputStatus.END_OF_INPUT;
        }
        return InputStatus.MORE_AVAILABLE;
    }

    private void emit(Cursor<T> c, long n, ReaderOutput<T> output) {
        if (c.outOf != output) {
            c.outOf = output;
            c.out = output.split(c.split.splitId());
        }
        long stride = c.split.stride();
        long i = c.next;
        for (long k = 0; k < n; k++, i += stride) {
            T value = function.apply(i);
            if (timestamps == null) {
                c.out.collect(value);
            } else {
                c.out.collect(value, timestamps.timestampOf(i));
            }
            c.next = i + stride;
        }
    }

    @Override
    public List<IndexRange> snapshotState() {
        List<IndexRange> state = new ArrayList<>(cursors.size());
        for (Cursor<T> c : cursors) {
            state.add(c.split.at(c.next));
        }
        return state;
    }

    @Override
    public void close() {
        cursors.clear();
    }
}
