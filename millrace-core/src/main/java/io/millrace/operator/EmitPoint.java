package io.millrace.operator;

/**
 * A moment at which a task asks the operators of its chain to send what they hold back from their output
 * ({@link StreamOperator#emitHeldBack}). Whether the operator must send everything or may keep some depends
 * on the moment.
 */
public enum EmitPoint {
    /**
     * A checkpoint barrier is about to go downstream. Must send everything held back outside state (partial
     * aggregates, for example), so that it reaches the consumers before the barrier and belongs to this
     * checkpoint. Comes before any operator's {@link StreamOperator#snapshotOperatorState} and keyed snapshot,
     * and also before the final checkpoint at the end of the input.
     */
    CHECKPOINT_BARRIER,

    /**
     * The subtask is about to tell its consumers that it is idle, after which their watermarks advance without
     * it. Must send everything held back, or what it holds may meet a watermark that has passed it.
     */
    IDLE,

    /**
     * The subtask ran out of input and is about to wait for more (a source with nothing to read, a task with
     * nothing queued, a source waiting for its alignment group). May send what it holds: it would only wait
     * with the subtask, which has time to spare. A busy subtask never gets here.
     */
    WAITING_FOR_INPUT,

    /**
     * The task is sending its partial output batches: the buffer timeout passed, or the input ended. May make
     * buffered output visible (a sink's writer flushes here).
     */
    OUTPUT_FLUSH
}
