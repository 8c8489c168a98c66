package io.millrace.runtime.async;

import java.util.ArrayDeque;

/**
 * Results in input order: the queue holds records and watermarks as they arrived; whatever is at its head leaves as
 * soon as it is done (a watermark always is). Watermarks in a row are merged into the newest.
 */
final class OrderedResults<OUT> implements ResultQueue<OUT> {
    private final ArrayDeque<Object> queue = new ArrayDeque<>();
    private final Emitter<OUT> emitter;

    OrderedResults(Emitter<OUT> emitter) {
        this.emitter = emitter;
    }

    @Override
    public void add(AsyncRequest<?, OUT> request) {
        queue.add(request);
    }

    @Override
    public void addWatermark(long watermark) {
        if (queue.isEmpty()) {
            emitter.emitWatermark(watermark);
        } else {
            if (queue.peekLast() instanceof Long) {
                queue.pollLast(); // nothing between the two: the newer one says all the older one did
            }
            queue.add(watermark);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public void completed(AsyncRequest<?, OUT> request) {
        while (!queue.isEmpty()) {
            Object head = queue.peek();
            if (head instanceof Long watermark) {
                queue.poll();
                emitter.emitWatermark(watermark);
            } else {
                AsyncRequest<?, OUT> r = (AsyncRequest<?, OUT>) head;
                if (!r.done) {
                    return;
                }
                queue.poll();
                emitter.emit(r);
            }
        }
    }
}
