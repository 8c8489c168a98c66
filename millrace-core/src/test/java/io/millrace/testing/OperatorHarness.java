package io.millrace.testing;

import io.millrace.api.OutputTag;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.metrics.OperatorMetricGroup;
import io.millrace.runtime.operator.StreamOperator;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.heap.HeapKeyedStateBackend;
import java.util.List;

/**
 * Drives one operator the way a task does, on the test thread: records, watermarks, processing time
 * (a {@link ManualClock}) and end of input, with a real {@link HeapKeyedStateBackend} when keyed. Records
 * everything the operator emits. Subclasses add the record methods of one- and two-input operators.
 */
public abstract class OperatorHarness<OUT> implements AutoCloseable {
    private final StreamOperator<OUT> operator;
    private final HarnessContext context;
    private final ManualClock clock;
    private final RecordedOutput<OUT> output = new RecordedOutput<>();
    private boolean closed;

    OperatorHarness(StreamOperator<OUT> operator, HarnessSetup<?> setup) throws Exception {
        this.operator = operator;
        this.clock = new ManualClock(setup.startProcessingTime());
        this.context = setup.context(clock);
        setup.restore(context.keyedStateBackend());
        operator.open(context, output);
    }

    /** Passes a watermark to the operator (for two inputs: as the combined watermark of both). */
    public void processWatermark(long watermark) throws Exception {
        operator.processWatermark(watermark);
    }

    /** Moves the clock to {@code millis} (never backwards) and lets the operator fire processing-time timers. */
    public void setProcessingTime(long millis) throws Exception {
        clock.set(millis);
        operator.advanceProcessingTime(millis);
    }

    /** Ends the input as the runtime does for a bounded input: the final watermark (+∞), then endInput. */
    public void endInput() throws Exception {
        operator.processWatermark(Long.MAX_VALUE);
        operator.endInput();
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

    /** The keyed state backend, whichever it is; null when the operator is not keyed. */
    public KeyedStateBackend keyedBackend() {
        return context.keyedStateBackend();
    }

    /** The keyed state backend; null when the operator is not keyed. */
    public HeapKeyedStateBackend backend() {
        return (HeapKeyedStateBackend) context.keyedStateBackend();
    }

    public int numEventTimeTimers() {
        return backend() == null ? 0 : backend().eventTimeTimerCount();
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

    public StreamOperator<OUT> operator() {
        return operator;
    }
}
