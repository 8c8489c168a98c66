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

    /**
     * A checkpoint barrier reached this operator: everything before it has been processed. Return the
     * operator's non-keyed state as a list of serializable items (keyed state is snapshotted by the
     * backend). After a rescale the items of all old subtasks are spread over the new ones. Default: none.
     */
    default java.util.List<? extends java.io.Serializable> snapshotOperatorState(long checkpointId) throws Exception {
        return java.util.List.of();
    }

    /**
     * Called before {@link #open} when the job starts from a checkpoint, with this subtask's share of the
     * items the operator's subtasks returned from {@link #snapshotOperatorState}. Default: nothing.
     */
    default void restoreOperatorState(java.util.List<java.io.Serializable> items) throws Exception {}

    /** Checkpoint {@code checkpointId} is complete everywhere (e.g. commit pending transactions). Default: nothing. */
    default void notifyCheckpointComplete(long checkpointId) throws Exception {}

    /** Releases resources. Idempotent; called on every path, including failure. */
    default void close() throws Exception {}
}
