package io.millrace.testing;

import io.millrace.api.OutputTag;
import io.millrace.api.time.ManualClock;
import io.millrace.operator.EmitPoint;
import io.millrace.operator.OperatorMetricGroup;
import io.millrace.operator.StreamOperator;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.KeyedStateSnapshot;
import io.millrace.runtime.state.heap.HeapKeyedStateBackend;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Drives one operator the way a task does, on the test thread: records, watermarks, processing time
 * (a {@link ManualClock}) and end of input, with a real {@link HeapKeyedStateBackend} when keyed. Records
 * everything the operator emits. Subclasses add the record methods of one- and two-input operators.
 *
 * <p>Built from an operator <em>factory</em>, the harness attacks the operator: after every input it takes
 * a checkpoint (first {@code emitHeldBack(CHECKPOINT_BARRIER)}, whose output is recorded like any other; then keyed state through the backend's snapshot bytes, operator state through Java
 * serialization), closes the operator and its backend, and goes on with a fresh instance restored from that
 * checkpoint, as a task does after a failure. The restored operator is told the processing time (as a task
 * does before its first record) and given back the watermark it had (what a replayed input re-establishes),
 * and must not emit anything for either: what fired before the checkpoint must not fire again. Tests that need one instance throughout use
 * {@link HarnessSetup#restoreBetweenInputs(boolean) restoreBetweenInputs(false)} or build from an instance.
 */
public abstract class OperatorHarness<OUT> implements AutoCloseable {
    private final Supplier<? extends StreamOperator<OUT>> factory;
    private final HarnessSetup<?> setup;
    private final boolean restoreBetweenInputs;
    private final ManualClock clock;
    private final RecordedOutput<OUT> output = new RecordedOutput<>();
    private StreamOperator<OUT> operator;
    private HarnessContext context;
    private long watermark = Long.MIN_VALUE;
    private long checkpointId;
    private boolean closed;

    OperatorHarness(StreamOperator<OUT> operator, Supplier<? extends StreamOperator<OUT>> factory, HarnessSetup<?> setup) throws Exception {
        this.factory = factory;
        this.setup = setup;
        this.restoreBetweenInputs = factory != null && setup.restoresBetweenInputs();
        this.operator = operator != null ? operator : factory.get();
        this.clock = new ManualClock(setup.startProcessingTime());
        this.context = setup.context(clock);
        setup.restore(context.keyedStateBackend());
        this.operator.open(context, output);
    }

    /** The operator instance in use now (another one after each restore). */
    protected final StreamOperator<OUT> current() {
        return operator;
    }

    /** Subclasses call this after handing the operator one input. */
    protected final void afterInput() throws Exception {
        if (restoreBetweenInputs && !closed) {
            restoreFromCheckpoint();
        }
    }

    /** Passes a watermark to the operator (for two inputs: as the combined watermark of both). */
    public void processWatermark(long watermark) throws Exception {
        operator.processWatermark(watermark);
        this.watermark = Math.max(this.watermark, watermark);
        afterInput();
    }

    /** Moves the clock to {@code millis} (never backwards) and lets the operator fire processing-time timers. */
    public void setProcessingTime(long millis) throws Exception {
        clock.set(millis);
        operator.advanceProcessingTime(millis);
        afterInput();
    }

    /** Ends the input as the runtime does for a bounded input: the final watermark (+∞), then endInput. */
    public void endInput() throws Exception {
        operator.processWatermark(Long.MAX_VALUE);
        watermark = Long.MAX_VALUE;
        operator.endInput();
    }

    /** How many times the operator was checkpointed and replaced by a restored instance. */
    public long restores() {
        return checkpointId;
    }

    private void restoreFromCheckpoint() throws Exception {
        long id = ++checkpointId;
        operator.emitHeldBack(EmitPoint.CHECKPOINT_BARRIER);
        KeyedStateBackend old = context.keyedStateBackend();
        KeyGroupRange range = old == null ? null : old.keyGroupRange();
        long[] offsets = range == null ? null : new long[range.size()];
        byte[] keyed = old == null ? null : keyedBytes(old.snapshot(id), offsets);
        List<Serializable> items = copy(operator.snapshotOperatorState(id));
        operator.close();
        if (old != null) {
            old.close();
        }
        OperatorMetricGroup metrics = context.metrics();
        context = setup.context(clock, id, metrics);
        KeyedStateBackend fresh = context.keyedStateBackend();
        if (fresh != null) {
            for (int i = 0; i < offsets.length; i++) {
                int at = (int) offsets[i];
                fresh.restoreKeyGroup(range.start() + i, new DataInputStream(new ByteArrayInputStream(keyed, at, keyed.length - at)));
            }
        }
        operator = factory.get();
        operator.restoreOperatorState(items);
        operator.open(context, output);
        int beforeTime = output.recordCount();
        operator.advanceProcessingTime(clock.millis());
        if (output.recordCount() != beforeTime) {
            throw new AssertionError("after restoring checkpoint " + id + " the operator emitted " + (output.recordCount() - beforeTime)
                    + " record(s) when told the processing time " + clock.millis() + ": what fired before the checkpoint fired again");
        }
        if (watermark != Long.MIN_VALUE) {
            int records = output.recordCount();
            int watermarks = output.watermarks().size();
            operator.processWatermark(watermark);
            if (output.recordCount() != records) {
                throw new AssertionError("after restoring checkpoint " + id + " the operator emitted " + (output.recordCount() - records)
                        + " record(s) when given back its watermark " + watermark + ": what fired before the checkpoint fired again");
            }
            output.keepWatermarks(watermarks);
        }
    }

    private static byte[] keyedBytes(KeyedStateSnapshot snapshot, long[] offsets) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        try {
            snapshot.write(out, out::size, offsets);
        } finally {
            snapshot.release();
        }
        out.flush();
        return bytes.toByteArray();
    }

    /** The operator state as a restore would see it: through Java serialization (so it must be serializable). */
    @SuppressWarnings("unchecked")
    private static List<Serializable> copy(List<? extends Serializable> items) throws IOException, ClassNotFoundException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new ArrayList<>(items));
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (List<Serializable>) in.readObject();
        }
    }

    /** Closes the operator and the backend; idempotent. A failing operator close surfaces as IllegalStateException. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            operator.close();
        } catch (Exception e) {
            throw new IllegalStateException("closing the operator failed", e);
        } finally {
            if (context.keyedStateBackend() != null) {
                context.keyedStateBackend().close();
            }
        }
    }

    /** Main-output records with timestamps, in emission order. */
    public List<Emitted<OUT>> output() {
        return output.records();
    }

    /** Main-output values, in emission order. */
    public List<OUT> extractOutputValues() {
        return output.records().stream().map(Emitted::value).toList();
    }

    public <X> List<Emitted<X>> sideOutput(OutputTag<X> tag) {
        return output.sideOutput(tag);
    }

    public <X> List<X> sideOutputValues(OutputTag<X> tag) {
        return output.sideOutput(tag).stream().map(Emitted::value).toList();
    }

    /** Watermarks the operator forwarded, in order. */
    public List<Long> watermarks() {
        return output.watermarks();
    }

    /** Forgets the output recorded so far. */
    public void clearOutput() {
        output.clear();
    }

    /** The keyed state backend now in use, whichever it is; null when the operator is not keyed. */
    public KeyedStateBackend keyedBackend() {
        return context.keyedStateBackend();
    }

    /** The keyed state backend now in use; null when the operator is not keyed. */
    public HeapKeyedStateBackend backend() {
        return (HeapKeyedStateBackend) context.keyedStateBackend();
    }

    public int numEventTimeTimers() {
        return keyedBackend() == null ? 0 : keyedBackend().eventTimeTimerCount();
    }

    public int numProcessingTimeTimers() {
        return backend() == null ? 0 : backend().processingTimeTimerCount();
    }

    public ManualClock clock() {
        return clock;
    }

    public OperatorMetricGroup metrics() {
        return context.metrics();
    }

    /** The operator instance in use now. */
    public StreamOperator<OUT> operator() {
        return operator;
    }
}
