package io.millrace.runtime.task;

import io.millrace.api.CheckpointConfig;
import io.millrace.api.time.Clock;
import io.millrace.operator.KeyedInput;
import io.millrace.operator.KeyedTwoInput;
import io.millrace.operator.OneInputOperator;
import io.millrace.operator.OperatorMetricGroup;
import io.millrace.operator.StreamOperator;
import io.millrace.operator.TwoInputOperator;
import io.millrace.runtime.checkpoint.TaskCheckpointing;
import io.millrace.runtime.exchange.ControlElement;
import io.millrace.runtime.exchange.RecordBatch;
import io.millrace.runtime.exchange.TaskSignal;

/**
 * A task whose head operator reads from exchange channels: batches go record by record into the head
 * (and through the chain by direct calls); watermarks, idleness and end of input are combined over the
 * channels by the input gate.
 */
final class StreamTask extends Task {
    private static final long IDLE_PARK_NANOS = 5_000_000L;
    private InputGate gate;
    private StreamOperator<Object> head;
    private OneInputOperator<Object, ?> oneInput;
    private KeyedInput<Object> keyedInput;
    private TwoInputOperator<Object, Object, ?> twoInput;
    private KeyedTwoInput<Object, Object> keyedTwoInput;
    private OperatorMetricGroup headMetrics;
    private boolean inputEnded;
    private final long inFlightTargetNanos;

    /** {@code inFlightTargetNanos}: how long each input channel's content should take to read; 0 keeps channels at capacity. */
    StreamTask(String name, int subtask, Clock clock, TaskSignal signal, TaskHost host, long bufferTimeoutNanos, long inFlightTargetNanos) {
        super(name, subtask, clock, signal, host, bufferTimeoutNanos);
        this.inFlightTargetNanos = inFlightTargetNanos;
    }

    @SuppressWarnings("unchecked")
    void setInput(InputGate gate) {
        this.gate = gate;
        ChainMember first = chain.get(0);
        this.head = first.operator();
        this.headMetrics = first.metrics();
        if (head instanceof TwoInputOperator<?, ?, ?> two) {
            twoInput = (TwoInputOperator<Object, Object, ?>) two;
            if (head instanceof KeyedTwoInput<?, ?> keyed) {
                keyedTwoInput = (KeyedTwoInput<Object, Object>) keyed;
            }
        } else {
            oneInput = (OneInputOperator<Object, ?>) head;
            if (head instanceof KeyedInput<?> keyed) {
                keyedInput = (KeyedInput<Object>) keyed;
            }
        }
    }

    @Override
    protected long inputWatermark() {
        return gate.watermark();
    }

    @Override
    protected void runLoop() throws Exception {
        if (gate.watermark() != Long.MIN_VALUE) {
            head.processWatermark(gate.watermark()); // restored: judge replayed records against it, as before the failure
        }
        if (inFlightTargetNanos > 0) {
            gate.sizeChannels(inFlightTargetNanos, clock.nanoTime());
        }
        while (!host.cancelled()) {
            runMailsAndTimers();
            Object element = gate.poll();
            if (element == null) {
                if (inputEnded) {
                    flushAll();
                    return;
                }
                long due = beforeWaiting();
                signal.wakeWatermark(watermarkToAct());
                idleWait(Math.min(IDLE_PARK_NANOS, due));
                continue;
            }
            InputGate.InputChannel in = gate.current();
            if (element instanceof RecordBatch batch) {
                processBatch(batch, in.inputIndex);
                in.channel.recycle(batch);
                long now = clock.nanoTime();
                flushIfDue(now);
                gate.resizeIfDue(now, idleNanos);
            } else {
                processControl((ControlElement) element, in);
                if (inputEnded) {
                    endOfInput();
                    return;
                }
            }
        }
    }

    private void processBatch(RecordBatch batch, int inputIndex) throws Exception {
        int n = batch.size();
        if (keyedInput != null && batch.keyed()) {
            for (int i = 0; i < n; i++) {
                keyedInput.processKeyedRecord(batch.key(i), batch.keyGroup(i), batch.value(i), batch.timestamp(i));
            }
        } else if (oneInput != null) {
            for (int i = 0; i < n; i++) {
                oneInput.processRecord(batch.value(i), batch.timestamp(i));
            }
        } else if (keyedTwoInput != null && batch.keyed()) {
            if (inputIndex == 0) {
                for (int i = 0; i < n; i++) {
                    keyedTwoInput.processKeyedRecord1(batch.key(i), batch.keyGroup(i), batch.value(i), batch.timestamp(i));
                }
            } else {
                for (int i = 0; i < n; i++) {
                    keyedTwoInput.processKeyedRecord2(batch.key(i), batch.keyGroup(i), batch.value(i), batch.timestamp(i));
                }
            }
        } else if (inputIndex == 0) {
            for (int i = 0; i < n; i++) {
                twoInput.processRecord1(batch.value(i), batch.timestamp(i));
            }
        } else {
            for (int i = 0; i < n; i++) {
                twoInput.processRecord2(batch.value(i), batch.timestamp(i));
            }
        }
        headMetrics.recordsIn += n; // counted once processed, so that a reader seeing n knows they are
    }

    private void processControl(ControlElement element, InputGate.InputChannel in) throws Exception {
        long advanced;
        if (element instanceof ControlElement.WatermarkElement wm) {
            advanced = gate.onWatermark(in, wm.watermark());
        } else if (element instanceof ControlElement.IdleStatus status) {
            advanced = gate.onIdle(in, status.idle());
        } else if (element instanceof ControlElement.CheckpointBarrier barrier) {
            onBarrier(barrier, in);
            return;
        } else {
            advanced = gate.onEnd(in);
            inputEnded = gate.allEnded();
            if (!inputEnded && gate.aligned()) {
                finishAlignment(); // the ended channel was the last one the alignment waited for
            }
        }
        if (advanced != Long.MIN_VALUE) {
            watermarkStarts();
            head.processWatermark(advanced);
        }
        publishIdle(!inputEnded && gate.allIdle());
    }

    private long alignmentStart;
    /** Whether the barrier being aligned is a savepoint's. */
    private boolean alignedSavepoint;

    private void onBarrier(ControlElement.CheckpointBarrier barrier, InputGate.InputChannel in) throws Exception {
        TaskCheckpointing cp = host.checkpointing();
        if (cp == null) {
            return;
        }
        boolean block = cp.mode() == CheckpointConfig.Mode.EXACTLY_ONCE && gate.size() > 1;
        boolean first = barrier.checkpointId() > gate.checkpointId();
        if (first) {
            alignmentStart = clock.nanoTime();
            alignedSavepoint = barrier.savepoint();
        }
        if (gate.onBarrier(in, barrier.checkpointId(), block)) {
            finishAlignment();
        }
    }

    private void finishAlignment() throws Exception {
        long id = gate.checkpointId();
        long alignment = clock.nanoTime() - alignmentStart;
        gate.alignmentDone();
        snapshot(id, alignedSavepoint, true, alignment);
    }

    /**
     * The lowest watermark that can make this task do anything, published before it waits (see {@link
     * TaskSignal#wakeWatermark(long)}): the lowest of its operators' ({@link StreamOperator#watermarkToAct}) when
     * no task reads its output; otherwise any advance of its watermark, since a task downstream may wait for it.
     * Producers wake it only once every channel's last watermark is at or above this, so a producer ahead of the
     * others does not wake it for watermarks that cannot advance the task's (the lowest over its channels), and a
     * task with nothing to fire sleeps through the watermarks of its producers (each source sends up to one per
     * millisecond) and reads them with its next input or at the end of its idle wait.
     */
    private long watermarkToAct() {
        long current = gate.watermark();
        long advance = current == Long.MAX_VALUE ? Long.MAX_VALUE : current + 1;
        if (!writers.isEmpty()) {
            return advance;
        }
        long lowest = Long.MAX_VALUE;
        for (ChainMember m : chain) {
            lowest = Math.min(lowest, m.operator().watermarkToAct());
        }
        return Math.max(advance, lowest);
    }

    @Override
    protected boolean inputAvailable() {
        return gate.hasData();
    }
}
