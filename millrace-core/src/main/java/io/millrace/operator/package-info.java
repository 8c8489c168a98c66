/**
 * The operator SPI: what a physical operator implements and what the runtime offers it. Front ends (SQL, CEP, UDF
 * workers, the joins) lower onto operators written against this package, the public API ({@code io.millrace.api})
 * and the JDK only; the runtime's internals ({@code io.millrace.runtime}) stay out of sight, and an architecture
 * test keeps it so.
 *
 * <h2>What an operator is</h2>
 *
 * A {@link io.millrace.operator.StreamOperator} with one input ({@link io.millrace.operator.OneInputOperator}) or
 * two ({@link io.millrace.operator.TwoInputOperator}); keyed operators may also take records with their key already
 * extracted by the exchange ({@link io.millrace.operator.KeyedInput}, {@link io.millrace.operator.KeyedTwoInput}).
 * It emits through an {@link io.millrace.operator.Output}: records with their timestamps, records to side outputs
 * named by {@link io.millrace.api.OutputTag}, and watermarks. {@link io.millrace.operator.AbstractStreamOperator} keeps
 * the context, output and metrics, tracks the current watermark and forwards watermarks; most operators extend it. A
 * {@link io.millrace.operator.SpecLowering}, found by {@link java.util.ServiceLoader}, turns the
 * {@link io.millrace.api.plan.OperatorSpec} a front end put in the plan into a fresh operator per subtask.
 *
 * <h2>What an operator may call</h2>
 *
 * Through its {@link io.millrace.operator.OperatorContext}:
 * <ul>
 *   <li>keyed state of the current key, by the API's descriptors ({@code io.millrace.api.state}), and the current
 *       key itself, which the operator sets before it touches state for a record;</li>
 *   <li>event-time and processing-time timers per key, in named timer services that fire into a
 *       {@link io.millrace.operator.TimerCallback} with the timer's key current;</li>
 *   <li>its identity (name, subtask, parallelism, key groups), the clock, its metric counters, and whether and from
 *       which checkpoint it was restored;</li>
 *   <li>the {@linkplain io.millrace.operator.OperatorContext#mailbox() mailbox}: an executor that hands work back to
 *       the operator's own task thread from any other thread.</li>
 * </ul>
 * Non-keyed state (offsets, buffers, pending transactions) is what
 * {@link io.millrace.operator.StreamOperator#snapshotOperatorState} returns and
 * {@link io.millrace.operator.StreamOperator#restoreOperatorState} gets back; an operator that commits when a
 * checkpoint completes also implements {@link io.millrace.operator.CheckpointListener}.
 *
 * <h2>On which thread</h2>
 *
 * One thread, the subtask's task thread, owns the operator: it makes every call into the operator (lifecycle,
 * records, watermarks, processing time, snapshots, checkpoint notices, timer callbacks, mails), one at a time, so
 * nothing in an operator is ever called concurrently and operator code needs no locks. State, timers, the output and
 * the metric counters may be used only from that thread. Other threads (a client library's callback, a worker
 * process's reply) may only call {@code mailbox().execute(action)}; the action then runs on the task thread like any
 * other operator code. The context's identity methods may be read from any thread.
 *
 * <h2>In what order</h2>
 *
 * <pre>
 *   restoreOperatorState (only when restored) ─► open
 *     ─► ( processRecord… | processWatermark | advanceProcessingTime | emitHeldBack
 *          | snapshotOperatorState | checkpoint notices | mails )*
 *     ─► endInput ─► close            (close also on failure or cancellation, once)
 * </pre>
 * <ul>
 *   <li>Records and watermarks arrive in the order of their input; a watermark comes after every record it
 *       follows. A two-input operator's watermark is the minimum of both inputs'.</li>
 *   <li>In {@code processWatermark} a keyed operator first fires its event-time timers
 *       ({@link io.millrace.operator.OperatorContext#fireEventTimeTimers}), then forwards the watermark, so that what
 *       the timers emit precedes it downstream.</li>
 *   <li>Mails, checkpoint notices and processing time ({@code advanceProcessingTime}, where processing-time timers
 *       are fired with {@link io.millrace.operator.OperatorContext#fireProcessingTimeTimers}) come between input
 *       batches, never in the middle of another call; mails run in the order they were given.</li>
 *   <li>On a checkpoint barrier: {@code emitHeldBack(CHECKPOINT_BARRIER)} for every operator of the chain, then
 *       {@code snapshotOperatorState} and the keyed snapshot, then the barrier goes downstream. Completion or abort
 *       notices come later, in increasing checkpoint order.</li>
 *   <li>{@code endInput} comes after the final watermark ({@code Long.MAX_VALUE}) has been processed.</li>
 * </ul>
 */
package io.millrace.operator;
