package io.millrace.runtime.async;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Results as they complete, but never across a watermark. The records are cut into segments by the watermarks
 * between them: a record of the oldest segment leaves as soon as it is done; one of a later segment is held until
 * every segment before it has left, and a segment's closing watermark leaves after the last of its records.
 *
 * <pre>
 *   records  a b | W1 | c d | W2 | e     segments [a b]W1 [c d]W2 [e]
 *   d done: held (segment 2);  b, a done: leave, then W1, then d;  c done: leaves, then W2;  e: leaves when done
 * </pre>
 */
final class UnorderedResults<OUT> implements ResultQueue<OUT> {
    /** The records between two watermarks; closed by the later one. */
    private static final class Segment<OUT> {
        int waiting;
        final List<AsyncRequest<?, OUT>> held = new ArrayList<>();
        boolean closed;
        long watermark;
    }

    private final ArrayDeque<Segment<OUT>> segments = new ArrayDeque<>();
    private final Emitter<OUT> emitter;

    UnorderedResults(Emitter<OUT> emitter) {
        this.emitter = emitter;
        segments.add(new Segment<>());
    }

    @Override
    public void add(AsyncRequest<?, OUT> request) {
        Segment<OUT> open = segments.peekLast();
        open.waiting++;
        request.segment = open;
    }

    @Override
    public void addWatermark(long watermark) {
        Segment<OUT> open = segments.peekLast();
        if (segments.size() == 1 && open.waiting == 0) {
            emitter.emitWatermark(watermark);
            return;
        }
        if (open.waiting == 0 && open.held.isEmpty()) {
            // no record since the previous watermark: the new one replaces it
            Segment<OUT> previous = segments.pollLast();
            segments.peekLast().watermark = watermark;
            segments.add(previous);
            return;
        }
        open.closed = true;
        open.watermark = watermark;
        segments.add(new Segment<>());
    }

    @Override
    @SuppressWarnings("unchecked")
    public void completed(AsyncRequest<?, OUT> request) {
        Segment<OUT> segment = (Segment<OUT>) request.segment;
        segment.waiting--;
        if (segment == segments.peekFirst()) {
            emitter.emit(request);
        } else {
            segment.held.add(request);
        }
        Segment<OUT> first = segments.peekFirst();
        while (first.closed && first.waiting == 0) {
            segments.poll();
            emitter.emitWatermark(first.watermark);
            first = segments.peekFirst();
            for (AsyncRequest<?, OUT> r : first.held) {
                emitter.emit(r);
            }
            first.held.clear();
        }
    }
}
