package io.millrace.runtime.operator;

/**
 * A physical operator. One instance per subtask; every method is called by that subtask's task thread
 * only, so operator code needs no locks. Lifecycle:
 *
 * <pre>
 *   open ─► (processRecord | processWatermark | advanceProcessingTime)* ─► endInput ─► close
 *                                                  └─ on failure or cancel ─────────────► close
 * </pre>
 */
public interface StreamOperator<OUT> {
    void open(OperatorContext context, Output<OUT> output) throws Exception;

    /**
     * The operator's input watermark advanced (minimum over its inputs). Fire event-time timers up to
     * it, then forward it with {@code output.emitWatermark}. The default forwards it.
     */
    void processWatermark(long watermark) throws Exception;

    /**
     * Processing time reached {@code now} (the pipeline clock). Called by the task between batches,
     * not per record; fire due processing-time timers and run TTL sweeps. Default: nothing.
     */
    default void advanceProcessingTime(long now) throws Exception {}

    /** All input is consumed; the final watermark (+∞) has already been processed. Emit what is left. */
    default void endInput() throws Exception {}

    /** Releases resources. Idempotent; called on every path, including failure. */
    default void close() throws Exception {}
}
