package io.millrace.runtime.task;

import io.millrace.api.plan.OperatorSpec;
import io.millrace.operator.AbstractStreamOperator;
import io.millrace.operator.CheckpointListener;
import io.millrace.operator.EmitPoint;
import io.millrace.operator.OneInputOperator;
import io.millrace.operator.SpecLowering;
import io.millrace.operator.StreamOperator;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Lowers {@link Spec} to {@link RecordingOperator}, an operator written as a connector would write one: it holds
 * every record back until the task asks for it ({@link StreamOperator#emitHeldBack}), listens to checkpoints
 * ({@link CheckpointListener}), and records every call with its thread in the {@link Recorder} the spec names.
 * Registered for the tests in {@code META-INF/services}; it handles no other spec.
 */
public final class HookRecordingLowering implements SpecLowering {
    private static final Map<String, Recorder> RECORDERS = new ConcurrentHashMap<>();

    /** What a recording operator saw, in order, and on which threads. */
    public static final class Recorder {
        private final ConcurrentLinkedQueue<String> events = new ConcurrentLinkedQueue<>();
        private volatile String last;
        public final Set<Thread> threads = ConcurrentHashMap.newKeySet();
        /** While set, the next snapshot waits (at most 30 s) for {@link #release}, and clears it. */
        volatile boolean blockNextSnapshot;
        final CountDownLatch release = new CountDownLatch(1);

        /** Called by the operator's thread only; an event equal to the one before it is not repeated. */
        void record(String event) {
            threads.add(Thread.currentThread());
            if (!event.equals(last)) {
                events.add(event);
                last = event;
            }
        }

        public List<String> events() {
            return new ArrayList<>(events);
        }

        public boolean saw(String event) {
            return events.contains(event);
        }
    }

    /** A fresh recorder under {@code name}, replacing an older one. */
    public static Recorder recorder(String name) {
        Recorder r = new Recorder();
        RECORDERS.put(name, r);
        return r;
    }

    /** The spec of a recording operator that writes to the recorder {@code recorder}. */
    public record Spec(String recorder) implements OperatorSpec {
        @Override
        public String defaultName() {
            return "recording";
        }
    }

    @Override
    public boolean handles(OperatorSpec spec) {
        return spec instanceof Spec;
    }

    @Override
    public StreamOperator<?> create(OperatorSpec spec) {
        return new RecordingOperator(RECORDERS.get(((Spec) spec).recorder()));
    }

    static final class RecordingOperator extends AbstractStreamOperator<String>
            implements OneInputOperator<String, String>, CheckpointListener {
        private final Recorder recorder;
        private final List<String> held = new ArrayList<>();

        RecordingOperator(Recorder recorder) {
            this.recorder = recorder;
        }

        @Override
        public void processRecord(String value, long timestamp) {
            recorder.record("record:" + value);
            held.add(value);
        }

        @Override
        public void emitHeldBack(EmitPoint point) {
            recorder.record("emit:" + point);
            for (String value : held) {
                output.emit(value, Long.MIN_VALUE);
            }
            held.clear();
        }

        @Override
        public List<? extends Serializable> snapshotOperatorState(long checkpointId) throws InterruptedException {
            recorder.record("snapshot:" + checkpointId);
            if (recorder.blockNextSnapshot) {
                recorder.blockNextSnapshot = false;
                recorder.release.await(30, TimeUnit.SECONDS);
            }
            return List.of();
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            recorder.record("complete:" + checkpointId);
        }

        @Override
        public void notifyCheckpointAborted(long checkpointId) {
            recorder.record("aborted:" + checkpointId);
        }

        @Override
        public void endInput() {
            recorder.record("endInput");
        }

        @Override
        public void close() {
            recorder.record("close");
        }
    }
}
