package io.millrace.operator;

import io.millrace.api.functions.KeySelector;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.state.KeyedStateStore;
import io.millrace.api.time.Clock;
import io.millrace.api.time.TimerService;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * What the runtime gives one operator subtask in {@link StreamOperator#open}: who it is, its keyed state and
 * timers, its metrics, and the mailbox through which other threads hand it work.
 *
 * <p><b>Threads.</b> The methods that describe the subtask ({@link #operatorName}, {@link #subtaskIndex},
 * {@link #parallelism}, {@link #maxParallelism}, {@link #checkpointingEnabled}, {@link #restoredCheckpointId},
 * {@link #restoredParallelism}) return fixed values and may be called from any thread, and so may
 * {@link #mailbox()} and the executor it returns. Everything else (state, keys, timers, the metric counters) belongs
 * to the subtask's task thread and may be called only from it: from an operator method the runtime calls, from a
 * {@link TimerCallback}, or from an action run by the mailbox. The context may be kept from {@code open} to
 * {@code close}; it is not valid after {@code close}.
 *
 * <p><b>Keys.</b> Keyed state and timers always act for the current key. The operator sets it before it touches
 * state for a record ({@link #setCurrentKey}); the runtime sets it to the timer's key before a
 * {@link TimerCallback} runs and leaves it so afterwards. Only keyed operators (whose inputs come through
 * {@code keyBy}) have keyed state: on others {@link #keyed()} is false and the keyed methods throw
 * {@link IllegalStateException} naming the operator.
 */
public interface OperatorContext {
    /** The operator's name in the job, for messages and metrics. Any thread. */
    String operatorName();

    /** This subtask's index, {@code 0 <= subtaskIndex() < parallelism()}. Any thread. */
    int subtaskIndex();

    /** How many subtasks the operator runs as. Any thread. */
    int parallelism();

    /** The number of key groups keys are hashed into: the upper bound of the parallelism. Any thread. */
    int maxParallelism();

    /** The pipeline's clock: processing time for timers and anything the operator measures. */
    Clock clock();

    /**
     * The subtask's counters. The runtime counts records in and out; the operator counts what only it knows
     * (late records dropped or diverted, bad records), with plain increments on the task thread.
     */
    OperatorMetricGroup metrics();

    /**
     * The key selector of input 0 or 1, null when that input is not keyed. An operator that implements
     * {@link KeyedInput} or {@link KeyedTwoInput} gets most records with their key already extracted; it needs the
     * selector for the others.
     */
    KeySelector<Object, Object> keySelector(int input);

    /** Whether the job takes checkpoints. Any thread. */
    default boolean checkpointingEnabled() {
        return false;
    }

    /** The checkpoint this run started from, or -1 for a fresh start. Any thread. */
    default long restoredCheckpointId() {
        return -1;
    }

    /** The operator's parallelism in the restored checkpoint, or -1 for a fresh start or a new operator. Any thread. */
    default int restoredParallelism() {
        return -1;
    }

    /**
     * Runs actions on this subtask's task thread, between input batches, in the order they were given; callable from
     * any thread, it never blocks. This is how work finished on another thread (the answer to an asynchronous request,
     * a connector's callback) re-enters the operator: the action may then use state, timers and the output like any
     * other operator code, and is never run concurrently with another call into the operator. An action that throws
     * fails the task. Actions given after the task ended are not run.
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

    /** Whether the operator has keyed state and timers (its inputs are keyed). */
    boolean keyed();

    /**
     * Keyed state by the API's descriptors, reading and writing the value of the current key; the same descriptor
     * name gives the same state, which is snapshotted with the subtask and redistributed by key on restore. Get the
     * state objects once, in {@code open}. Task thread.
     *
     * @throws IllegalStateException when the operator is not {@link #keyed()}
     */
    KeyedStateStore state();

    /** The current key, null before the first is set. Task thread. */
    Object currentKey();

    /**
     * Makes {@code key} the current key of state and timers. Fails with {@link IllegalStateException} if the key
     * does not belong to this subtask (a record that did not come through the key's exchange). Task thread.
     */
    void setCurrentKey(Object key);

    /**
     * As {@link #setCurrentKey(Object)}, with the key group the exchange already computed (the one a
     * {@link KeyedInput} record arrives with), so that the key is not hashed again. Task thread.
     */
    default void setCurrentKey(Object key, int keyGroup) {
        setCurrentKey(key);
    }

    /**
     * Per-key timers named {@code name}, firing into {@code callback}: register and delete them for the current key
     * with the returned service; a (key, timestamp) is registered at most once per service. The timers are part of
     * the keyed snapshot, kept under {@code name}: give each service of an operator its own name, and keep the name
     * across versions so that savepoints restore. Ask for each name once, in {@code open}. Task thread.
     *
     * <p>Event-time timers fire in {@link #fireEventTimeTimers}, processing-time ones in
     * {@link #fireProcessingTimeTimers}; a timer registered for a time already passed fires at the next such call.
     *
     * @throws IllegalStateException when the operator is not {@link #keyed()}
     * @throws IllegalArgumentException when this subtask already has a timer service of that name
     */
    TimerService timerService(String name, TimerCallback callback);

    /**
     * Fires every event-time timer of this subtask at or before {@code watermark}, over all its timer services, in
     * timestamp order, each with its key made current. Call it from {@link StreamOperator#processWatermark} before
     * passing the watermark on, so that what the timers emit precedes the watermark. A callback may register
     * further timers; those at or before {@code watermark} fire in the same call. Task thread.
     */
    void fireEventTimeTimers(long watermark) throws Exception;

    /**
     * Fires the processing-time timers due at {@code now} and lets state with a time-to-live drop some expired
     * entries. Call it from {@link StreamOperator#advanceProcessingTime}. Task thread.
     */
    void fireProcessingTimeTimers(long now) throws Exception;

    /**
     * The time of the earliest event-time timer over all timer services, {@code Long.MAX_VALUE} when there is none:
     * the lowest watermark at which {@link #fireEventTimeTimers} fires anything, for
     * {@link StreamOperator#watermarkToAct}. Task thread.
     */
    long nextEventTimeTimer();

    /**
     * What a user function the operator calls sees of this subtask ({@link io.millrace.api.functions.RichFunction}
     * opens with it): the identity above, the pipeline's {@link #clock()} and, for a keyed operator, {@link #state()}.
     */
    default RuntimeContext runtimeContext() {
        OperatorContext context = this;
        return new RuntimeContext() {
            @Override
            public String operatorName() {
                return context.operatorName();
            }

            @Override
            public int subtaskIndex() {
                return context.subtaskIndex();
            }

            @Override
            public int parallelism() {
                return context.parallelism();
            }

            @Override
            public int maxParallelism() {
                return context.maxParallelism();
            }

            @Override
            public KeyedStateStore state() {
                return context.state();
            }

            @Override
            public Clock clock() {
                return context.clock();
            }
        };
    }
}
