package io.millrace.runtime.operator;

/**
 * A physical operator. One instance per subtask; every method is called by that subtask's task thread
 * only, so operator code needs no locks. Lifecycle:
 *
 * <pre>
 *   open ─► (processRecord | processWatermark | advanceProcessingTime
 *            | prepareIdle | beforeWaiting | prepareSnapshotPreBarrier, snapshotOperatorState)* ─► endInput ─► close
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
     * A checkpoint barrier reached this subtask and is about to go downstream: emit now whatever the operator
     * holds back from its output without keeping it in state (e.g. partial aggregates), so that it reaches the
     * consumers before the barrier and belongs to this checkpoint. Called by the task thread for every operator
     * of the chain, head first (what an operator emits here reaches the next one before that one is called),
     * before any operator's {@link #snapshotOperatorState} and keyed snapshot and before the barrier is sent;
     * also before the final checkpoint at end of input. The operator may emit records but not watermarks.
     * Default: nothing.
     */
    default void prepareSnapshotPreBarrier(long checkpointId) throws Exception {}

    /**
     * The task is about to tell its consumers that this subtask is idle, after which their watermarks advance
     * without it: emit now whatever the operator holds back from its output (as for
     * {@link #prepareSnapshotPreBarrier}), or it may meet a watermark that has passed it. Called by the task
     * thread for every operator of the chain, head first, each time the subtask turns idle. Default: nothing.
     */
    default void prepareIdle() throws Exception {}

    /**
     * The subtask ran out of input and is about to wait for more (a source with nothing to read, a task with
     * nothing queued). An operator that holds records back to combine them (local window pre-aggregation) should
     * send them now: they would only wait with the subtask, and a subtask that waits has time to spare, so
     * holding back costs latency and saves nothing. A busy subtask never gets here. Called by the task thread for
     * every operator of the chain, head first. Default: nothing.
     */
    default void beforeWaiting() throws Exception {}

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
