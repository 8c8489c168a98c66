package io.millrace.runtime.operator;

import io.millrace.api.sink.Committer;
import io.millrace.api.sink.CommittingSinkWriter;
import io.millrace.api.sink.SinkContext;
import io.millrace.api.sink.TwoPhaseCommitSink;
import io.millrace.api.sink.versioned.VersionedCommittables;
import io.millrace.api.source.VersionedCodec;
import io.millrace.runtime.checkpoint.VersionedBytes;
import java.io.IOException;
import io.millrace.operator.AbstractStreamOperator;
import io.millrace.operator.CheckpointListener;
import io.millrace.operator.EmitPoint;
import io.millrace.operator.OneInputOperator;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.Output;
import io.millrace.operator.UserFunctionException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs an exactly-once sink. On each checkpoint barrier the writer prepares what it wrote; those
 * committables are kept, stored in the checkpoint (all not yet committed), and committed when the
 * checkpoint completes. On a restore, the committables of the restored checkpoint are committed first
 * (again, if they already were: commits are idempotent), and what failed runs left behind is aborted.
 * Without checkpointing, output is committed at the end of a bounded input. An abandoned checkpoint changes
 * nothing: its committables stay pending, are stored again in the next checkpoint, and are committed with it.
 * Committables are stored as the versioned bytes of the sink's {@link VersionedCommittables#committableCodec()} when it
 * has one, else by Java serialization; both forms are read back.
 */
public final class TwoPhaseCommitSinkOperator<T, C extends Serializable> extends AbstractStreamOperator<Void>
        implements OneInputOperator<T, Void>, CheckpointListener {
    private final TwoPhaseCommitSink<T, C> sink;
    private final TreeMap<Long, List<C>> pending = new TreeMap<>();
    private final List<Serializable> restored = new ArrayList<>();
    private VersionedCodec<C> codec;
    private CommittingSinkWriter<T, C> writer;
    private Committer<C> committer;

    public TwoPhaseCommitSinkOperator(TwoPhaseCommitSink<T, C> sink) {
        this.sink = sink;
    }

    @Override
    public void restoreOperatorState(List<Serializable> items) {
        restored.addAll(items);
    }

    @SuppressWarnings("unchecked")
    private List<C> decodeRestored() throws IOException {
        List<C> committables = new ArrayList<>(restored.size());
        for (Serializable item : restored) {
            if (item instanceof VersionedBytes v && v.kind() == VersionedBytes.COMMITTABLE) {
                if (codec == null) {
                    throw new IOException("sink '" + context.operatorName() + "': the checkpoint holds encoded committables (version "
                            + v.version() + ") but the sink has no committable codec");
                }
                try {
                    committables.add(codec.decode(v.version(), v.bytes()));
                } catch (IOException e) {
                    throw new IOException("sink '" + context.operatorName() + "': cannot read a committable of the checkpoint: " + e.getMessage(), e);
                }
            } else {
                committables.add((C) item); // stored by Java serialization
            }
        }
        return committables;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void open(OperatorContext ctx, io.millrace.operator.Output<Void> output) throws Exception {
        super.open(ctx, output);
        codec = sink instanceof VersionedCommittables<?> v ? (VersionedCodec<C>) v.committableCodec() : null;
        SinkContext own = SinkContexts.of(ctx, ctx.subtaskIndex());
        long restoredId = ctx.restoredCheckpointId();
        sink.abortLingering(own, restoredId);
        // after scaling in, the subtasks that no longer exist left files too: their lowest new owner cleans up
        for (int old = ctx.parallelism() + ctx.subtaskIndex(); old < ctx.restoredParallelism(); old += ctx.parallelism()) {
            sink.abortLingering(SinkContexts.of(ctx, old), restoredId);
        }
        committer = sink.createCommitter(own);
        if (!restored.isEmpty()) {
            committer.commit(decodeRestored());
            restored.clear();
        }
        writer = sink.createWriter(own);
    }

    @Override
    public void processRecord(T value, long timestamp) {
        try {
            writer.write(value, timestamp);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        currentWatermark = watermark;
        metrics.watermark(watermark);
        writer.onWatermark(watermark);
    }

    /** Only the final watermark, unless the writer reacts to watermarks ({@code onWatermark} of its own). */
    @Override
    public long watermarkToAct() {
        return SinkWatermarks.writerReacts(writer) ? Long.MIN_VALUE : Long.MAX_VALUE;
    }

    /**
     * Lets the writer flush its buffers (still uncommitted) when the subtask waits for input and when the task
     * sends its partial batches; what a barrier needs, {@link #snapshotOperatorState} prepares.
     */
    @Override
    public void emitHeldBack(EmitPoint point) throws Exception {
        if (point == EmitPoint.WAITING_FOR_INPUT || point == EmitPoint.OUTPUT_FLUSH) {
            writer.flush(false);
        }
    }

    @Override
    public List<? extends Serializable> snapshotOperatorState(long checkpointId) throws Exception {
        List<C> prepared = writer.prepareCommit(checkpointId);
        if (!prepared.isEmpty()) {
            pending.put(checkpointId, new ArrayList<>(prepared));
        }
        List<Serializable> all = new ArrayList<>();
        for (List<C> committables : pending.values()) {
            for (C c : committables) {
                all.add(codec == null ? c : new VersionedBytes(VersionedBytes.COMMITTABLE, codec.version(), codec.encode(c)));
            }
        }
        return all;
    }

    /** Commits what was prepared for {@code checkpointId} and every earlier checkpoint. */
    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        Map<Long, List<C>> done = pending.headMap(checkpointId, true);
        if (done.isEmpty()) {
            return;
        }
        List<C> toCommit = new ArrayList<>();
        for (List<C> c : done.values()) {
            toCommit.addAll(c);
        }
        committer.commit(toCommit);
        done.clear();
    }

    @Override
    public void endInput() throws Exception {
        writer.flush(true);
        if (!context.checkpointingEnabled()) {
            List<C> last = writer.prepareCommit(Long.MAX_VALUE);
            if (!last.isEmpty()) {
                committer.commit(last);
            }
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (writer != null) {
                writer.close();
            }
        } finally {
            writer = null;
            if (committer != null) {
                committer.close();
                committer = null;
            }
        }
    }
}
