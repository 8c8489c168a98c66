package io.millrace.operator;

/**
 * A physical operator. One instance per subtask; every method is called by that subtask's task thread
 * only, one call at a time, so operator code needs no locks (see the package documentation for the whole
 * contract). Lifecycle:
 *
 * <pre>
 *   [restoreOperatorState] ─► open ─► (processRecord | processWatermark | advanceProcessingTime | emitHeldBack
 *            | snapshotOperatorState | checkpoint notices | mailbox actions)* ─► endInput ─► close
 *                                  └─ on failure or cancel ─► close
 * </pre>
 *
 * An operator that commits or acknowledges when a checkpoint completes also implements {@link CheckpointListener}.
 */
public interface StreamOperator<OUT> {
    void open(OperatorContext context, Output<OUT> output) throws Exception;

    /**
     * The operator's input watermark advanced (minimum over its inputs). Fire event-time timers up to
     * it ({@link OperatorContext#fireEventTimeTimers}), then forward it with {@code output.emitWatermark}.
     */
    void processWatermark(long watermark) throws Exception;

    /**
     * Processing time reached {@code now} (the pipeline clock). Called by the task between batches,
     * not per record; fire due processing-time timers and run TTL sweeps
     * ({@link OperatorContext#fireProcessingTimeTimers}). Default: nothing.
     */
    default void advanceProcessingTime(long now) throws Exception {}

    /**
     * The lowest watermark at which {@link #processWatermark} would do more than note it and pass it on (fire a
     * timer or a window, emit, change state): {@code Long.MAX_VALUE} when only the final watermark would, and the
     * default, {@code Long.MIN_VALUE}, for every watermark. Asked on the task thread before the task waits for
     * input; a task whose chain has no downstream task is not woken for a watermark below its chain's lowest
     * (the watermark waits in the channel until something else wakes the task, at most its idle wait), so an
     * operator must never answer higher than the truth, and only the operator's own thread changes the answer.
     */
    default long watermarkToAct() {
        return Long.MIN_VALUE;
    }

    /** All input is consumed; the final watermark (+∞) has already been processed. Emit what is left. */
    default void endInput() throws Exception {}

    /**
     * Sends what the operator holds back from its output (records it combines, a writer's buffer), at the moment
     * {@code point} names; each point says whether everything must go or some may stay. Called by the task thread
     * for every operator of the chain, head first, so what one operator emits here reaches the next before that
     * one is called. The operator may emit records but not watermarks. Default: nothing.
     */
    default void emitHeldBack(EmitPoint point) throws Exception {}

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

    /** Releases resources. Idempotent; called on every path, including failure. */
    default void close() throws Exception {}
}
