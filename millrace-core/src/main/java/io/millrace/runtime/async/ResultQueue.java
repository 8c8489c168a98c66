package io.millrace.runtime.async;

/**
 * Decides when results and watermarks leave an async operator: {@link OrderedResults} in input order,
 * {@link UnorderedResults} as they complete within the bounds of watermarks. Task thread only.
 */
interface ResultQueue<OUT> {
    /** Where a queue sends what may leave. */
    interface Emitter<OUT> {
        void emit(AsyncRequest<?, OUT> request);

        void emitWatermark(long watermark);
    }

    /** A record arrived; its request is in flight. */
    void add(AsyncRequest<?, OUT> request);

    /** A watermark arrived: it leaves once every record before it has, at once when none waits. */
    void addWatermark(long watermark);

    /** {@code request} is done (its results are set): emits whatever may leave now. */
    void completed(AsyncRequest<?, OUT> request);
}
