package io.millrace.testing;

import io.millrace.api.source.Boundedness;
import io.millrace.api.source.InputStatus;
import io.millrace.api.source.ReaderOutput;
import io.millrace.api.source.Source;
import io.millrace.api.source.SourceReader;
import io.millrace.api.source.SourceReaderContext;
import io.millrace.api.source.SourceSplit;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A source a test feeds while the job runs: {@link #add} from the test thread, {@link #end} to finish the
 * input. One split, read by one subtask (the source object is shared, not copied). Records added without a
 * timestamp carry none.
 */
public final class FeedSource<T> implements Source<T, FeedSource.Split> {
    private static final Object END = new Object();
    private final ConcurrentLinkedQueue<Object[]> queue = new ConcurrentLinkedQueue<>();

    /** The one split. */
    public record Split() implements SourceSplit {
        @Override
        public String splitId() {
            return "feed";
        }
    }

    /** Queues a record without timestamp. Thread-safe. */
    public FeedSource<T> add(T value) {
        return add(value, Long.MIN_VALUE);
    }

    /** Queues a record with an event timestamp. Thread-safe. */
    public FeedSource<T> add(T value, long timestamp) {
        queue.add(new Object[] {value, timestamp});
        return this;
    }

    /** Ends the input after the records queued so far. */
    public void end() {
        queue.add(new Object[] {END, Long.MIN_VALUE});
    }

    @Override
    public Boundedness boundedness() {
        return Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public List<Split> createSplits(int parallelism) {
        return List.of(new Split());
    }

    @Override
    public int maxParallelism() {
        return 1;
    }

    @Override
    public SourceReader<T, Split> createReader(SourceReaderContext context) {
        return new SourceReader<>() {
            @Override
            public void addSplits(List<Split> splits) {}

            @Override
            public void noMoreSplits() {}

            @Override
            @SuppressWarnings("unchecked")
            public InputStatus pollNext(ReaderOutput<T> output) {
                Object[] next = queue.poll();
                if (next == null) {
                    return InputStatus.NOTHING_AVAILABLE;
                }
                if (next[0] == END) {
                    return InputStatus.END_OF_INPUT;
                }
                output.split("feed").collect((T) next[0], (Long) next[1]);
                return InputStatus.MORE_AVAILABLE;
            }

            @Override
            public List<Split> snapshotState() {
                return List.of(new Split());
            }

            @Override
            public void close() {}
        };
    }
}
