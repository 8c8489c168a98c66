package io.millrace.api.source;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A bounded source over an in-memory list, read in order by one subtask; replayable from any position.
 * Elements carry no timestamp unless the watermark strategy assigns one.
 */
public final class CollectionSource<T> implements Source<T, CollectionSource.Position> {
    private final List<T> elements;

    public CollectionSource(Collection<T> elements) {
        this.elements = new ArrayList<>(elements);
    }

    /** The one split: the index of the next element to read. */
    public record Position(int next) implements SourceSplit {
        @Override
        public String splitId() {
            return "collection";
        }
    }

    @Override
    public io.millrace.api.source.VersionedCodec<Position> splitCodec() {
        return new PositionCodec();
    }

    /** Version 1: the split's fields in declaration order. */
    static final class PositionCodec extends io.millrace.api.source.DataCodec<Position> {
        private static final long serialVersionUID = 1L;

        @Override
        public int version() {
            return 1;
        }

        @Override
        protected void write(Position s, java.io.DataOutputStream out) throws java.io.IOException {
            out.writeInt(s.next());
        }

        @Override
        protected Position read(int version, java.io.DataInputStream in) throws java.io.IOException {
            return new Position(in.readInt());
        }
    }

    @Override
    public Boundedness boundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public List<Position> createSplits(int parallelism) {
        return List.of(new Position(0));
    }

    @Override
    public int maxParallelism() {
        return 1;
    }

    @Override
    public SourceReader<T, Position> createReader(SourceReaderContext context) {
        return new Reader();
    }

    private final class Reader implements SourceReader<T, Position> {
        private int next = -1;
        private static final int BATCH = 256;

        @Override
        public void addSplits(List<Position> splits) {
            for (Position p : splits) {
                next = p.next();
            }
        }

        @Override
        public void noMoreSplits() {}

        @Override
        public InputStatus pollNext(ReaderOutput<T> output) {
            if (next < 0) {
                return InputStatus.END_OF_INPUT;
            }
            int end = Math.min(elements.size(), next + BATCH);
            while (next < end) {
                output.collect(elements.get(next++));
            }
            return next < elements.size() ? InputStatus.MORE_AVAILABLE : InputStatus.END_OF_INPUT;
        }

        @Override
        public List<Position> snapshotState() {
            return next < 0 ? List.of() : List.of(new Position(next));
        }

        @Override
        public void close() {}
    }
}
