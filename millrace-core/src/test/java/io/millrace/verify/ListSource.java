package io.millrace.verify;

import io.millrace.api.source.Boundedness;
import io.millrace.api.source.InputStatus;
import io.millrace.api.source.ReaderOutput;
import io.millrace.api.source.Source;
import io.millrace.api.source.SourceReader;
import io.millrace.api.source.SourceReaderContext;
import io.millrace.api.source.SourceSplit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * A bounded source over a list, cut into contiguous ranges (one per subtask), each read in order through
 * its own split output with at most {@code maxPoll} records per poll, so that its watermark advances often.
 * Records carry the timestamps of {@code timestamps}.
 */
final class ListSource<T> implements Source<T, ListSource.Range> {
    private final List<T> elements;
    private final ToLongFunction<T> timestamps;
    private final int maxPoll;

    /** The records [next, end) of the list. */
    record Range(String splitId, int next, int end) implements SourceSplit {}

    ListSource(List<T> elements, ToLongFunction<T> timestamps, int maxPoll) {
        this.elements = elements;
        this.timestamps = timestamps;
        this.maxPoll = maxPoll;
    }

    @Override
    public Boundedness boundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public List<Range> createSplits(int parallelism) {
        List<Range> splits = new ArrayList<>();
        for (int i = 0; i < parallelism; i++) {
            splits.add(new Range("range-" + i, elements.size() * i / parallelism, elements.size() * (i + 1) / parallelism));
        }
        return splits;
    }

    @Override
    public SourceReader<T, Range> createReader(SourceReaderContext context) {
        return new Reader();
    }

    private final class Reader implements SourceReader<T, Range> {
        private final List<Range> ranges = new ArrayList<>();
        private int position;

        @Override
        public void addSplits(List<Range> splits) {
            ranges.addAll(splits);
            if (!ranges.isEmpty()) {
                position = ranges.get(0).next();
            }
        }

        @Override
        public void noMoreSplits() {}

        @Override
        public InputStatus pollNext(ReaderOutput<T> output) {
            if (ranges.isEmpty()) {
                return InputStatus.END_OF_INPUT;
            }
            Range r = ranges.get(0);
            ReaderOutput.SplitOutput<T> out = output.split(r.splitId());
            int n = Math.min(r.end() - position, 1 + Math.floorMod(position * 31 + 7, maxPoll));
            for (int i = 0; i < n; i++) {
                T value = elements.get(position++);
                out.collect(value, timestamps.applyAsLong(value));
            }
            if (position >= r.end()) {
                output.releaseSplit(r.splitId());
                ranges.remove(0);
                if (ranges.isEmpty()) {
                    return InputStatus.END_OF_INPUT;
                }
                position = ranges.get(0).next();
            }
            return InputStatus.MORE_AVAILABLE;
        }

        @Override
        public List<Range> snapshotState() {
            List<Range> state = new ArrayList<>();
            for (int i = 0; i < ranges.size(); i++) {
                Range r = ranges.get(i);
                state.add(i == 0 ? new Range(r.splitId(), position, r.end()) : r);
            }
            return state;
        }

        @Override
        public void close() {}
    }
}
