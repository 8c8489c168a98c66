package io.millrace.runtime.operator;

import io.millrace.api.functions.KeySelector;
import io.millrace.api.time.Clock;
import io.millrace.runtime.metrics.OperatorMetricGroup;
import io.millrace.runtime.state.KeyedStateBackend;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/** What the runtime gives an operator subtask. */
public interface OperatorContext {
    String operatorName();

    int subtaskIndex();

    int parallelism();

    int maxParallelism();

    Clock clock();

    OperatorMetricGroup metrics();

    /** The keyed state backend of this subtask; null when the operator is not keyed. */
    KeyedStateBackend keyedStateBackend();

    /** The key selector of input 0 or 1 of a keyed operator; null when that input is not keyed. */
    KeySelector<Object, Object> keySelector(int input);

    /** Whether the job takes checkpoints. */
    default boolean checkpointingEnabled() {
        return false;
    }

    /** The checkpoint this run started from, or -1 for a fresh start. */
    default long restoredCheckpointId() {
        return -1;
    }

    /** The operator's parallelism in the restored checkpoint, or -1 for a fresh start or a new operator. */
    default int restoredParallelism() {
        return -1;
    }

    /**
     * Runs actions on this subtask's task thread, between input batches or while this operator waits in {@link
     * #runMailsUntil}, in the order they were given; callable from
     * any thread, it never blocks. This is how work finished on another thread (the answer to an asynchronous request,
     * a connector's callback) re-enters the operator: the action may then use state, timers and the output like any
     * other operator code. Actions given after the task ended are not run.
     */
    default Executor mailbox() {
        throw new UnsupportedOperationException("operator '" + operatorName() + "' runs without a task thread here");
    }

    /**
     * Waits on the task thread until {@code condition} holds, running meanwhile the actions given to this operator's
     * {@link #mailbox()} and to those of the operators after it in the chain, and this operator's
     * {@link StreamOperator#advanceProcessingTime} whenever the clock moves. This is how an operator that must not
     * take more input (its requests in flight are at their limit, or it ends its input) waits for answers that come
     * back as mails: blocking the thread instead would never let them in. No input is read while it waits; mails of
     * the task (checkpoint notices) and of operators before this one in the chain wait until it returns. Call it
     * only from the task thread, in a method the task called (a record, a watermark, {@code endInput}, a mail);
     * {@code condition} is checked on that thread after every mail. Throws the task's cancellation when the job is
     * cancelled, and whatever a mail throws. The default fails: there is no task thread here.
     */
    default void runMailsUntil(BooleanSupplier condition) throws Exception {
        throw new UnsupportedOperationException("operator '" + operatorName() + "' runs without a task thread here");
    }
}
