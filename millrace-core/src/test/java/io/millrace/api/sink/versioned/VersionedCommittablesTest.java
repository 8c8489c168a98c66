package io.millrace.api.sink.versioned;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.sink.Committer;
import io.millrace.api.sink.CommittingSinkWriter;
import io.millrace.api.sink.SinkContext;
import io.millrace.api.sink.TwoPhaseCommitSink;
import io.millrace.api.source.DataCodec;
import io.millrace.api.source.VersionedCodec;
import io.millrace.runtime.checkpoint.VersionedBytes;
import io.millrace.runtime.operator.TwoPhaseCommitSinkOperator;
import io.millrace.testing.OneInputOperatorHarness;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The two-phase-commit sink operator stores committables in the sink's codec, restores them through it (also those
 * stored by Java serialization), and says clearly when it cannot.
 */
class VersionedCommittablesTest {
    /** A batch of values written between two checkpoints. */
    record Batch(long checkpointId, List<String> values) implements Serializable {}

    /** Version 1: checkpoint id, count, the values. */
    static final class BatchCodec extends DataCodec<Batch> {
        @Override
        public int version() {
            return 1;
        }

        @Override
        protected void write(Batch b, DataOutputStream out) throws IOException {
            out.writeLong(b.checkpointId());
            out.writeInt(b.values().size());
            for (String v : b.values()) {
                out.writeUTF(v);
            }
        }

        @Override
        protected Batch read(int version, DataInputStream in) throws IOException {
            long id = in.readLong();
            List<String> values = new ArrayList<>();
            for (int n = in.readInt(); n > 0; n--) {
                values.add(in.readUTF());
            }
            return new Batch(id, values);
        }
    }

    /** Commits batches into a list, once each (commits are idempotent). */
    static class ListSink implements TwoPhaseCommitSink<String, Batch> {
        static final List<Batch> COMMITTED = new CopyOnWriteArrayList<>();

        @Override
        public CommittingSinkWriter<String, Batch> createWriter(SinkContext context) {
            return new CommittingSinkWriter<>() {
                final List<String> open = new ArrayList<>();

                @Override
                public void write(String value, long timestamp) {
                    open.add(value);
                }

                @Override
                public List<Batch> prepareCommit(long checkpointId) {
                    if (open.isEmpty()) {
                        return List.of();
                    }
                    Batch b = new Batch(checkpointId, List.copyOf(open));
                    open.clear();
                    return List.of(b);
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }

        @Override
        public Committer<Batch> createCommitter(SinkContext context) {
            return batches -> batches.stream().filter(b -> !COMMITTED.contains(b)).forEach(COMMITTED::add);
        }

        @Override
        public void abortLingering(SinkContext context, long restoredCheckpointId) {}
    }

    static final class CodecSink extends ListSink implements VersionedCommittables<Batch> {
        @Override
        public VersionedCodec<Batch> committableCodec() {
            return new BatchCodec();
        }
    }

    @Test
    void committablesAreStoredAsVersionedBytes_andCommittedAfterEveryRestore() throws Exception {
        ListSink.COMMITTED.clear();
        var harness = OneInputOperatorHarness.<String, Void>of(() -> new TwoPhaseCommitSinkOperator<>(new CodecSink())).open();
        harness.processElement("a");
        harness.processElement("b");
        harness.processElement("c");
        assertThat(harness.restores()).isEqualTo(3);
        assertThat(ListSink.COMMITTED).flatExtracting(Batch::values).as("each batch committed by the restored instance").containsExactly("a", "b", "c");

        harness.close();

        var kept = OneInputOperatorHarness.<String, Void>of(new TwoPhaseCommitSinkOperator<>(new CodecSink())).restoreBetweenInputs(false).open();
        kept.processElement("d");
        List<? extends Serializable> items = kept.operator().snapshotOperatorState(100);
        assertThat(items).singleElement().isInstanceOf(VersionedBytes.class);
        VersionedBytes v = (VersionedBytes) items.get(0);
        assertThat(v.kind()).isEqualTo(VersionedBytes.COMMITTABLE);
        assertThat(v.version()).isEqualTo(1);
        assertThat(new BatchCodec().decode(1, v.bytes())).isEqualTo(new Batch(100, List.of("d")));
        kept.close();
    }

    @Test
    void committablesStoredByJavaSerialization_areStillRestored() throws Exception {
        ListSink.COMMITTED.clear();
        TwoPhaseCommitSinkOperator<String, Batch> operator = new TwoPhaseCommitSinkOperator<>(new CodecSink());
        operator.restoreOperatorState(List.of(new Batch(4, List.of("old"))));
        var harness = OneInputOperatorHarness.<String, Void>of(operator).restoreBetweenInputs(false).open();
        assertThat(ListSink.COMMITTED).containsExactly(new Batch(4, List.of("old")));
        harness.close();
    }

    @Test
    void encodedCommittables_ofANewerVersionOrForASinkWithoutACodec_failNamingTheSink() throws Exception {
        byte[] bytes = new BatchCodec().encode(new Batch(4, List.of("x")));
        TwoPhaseCommitSinkOperator<String, Batch> newer = new TwoPhaseCommitSinkOperator<>(new CodecSink());
        newer.restoreOperatorState(List.of(new VersionedBytes(VersionedBytes.COMMITTABLE, 2, bytes)));
        assertThatThrownBy(() -> OneInputOperatorHarness.<String, Void>of(newer).restoreBetweenInputs(false).name("files").open())
                .hasMessageContaining("sink 'files': cannot read a committable of the checkpoint: VersionedCommittablesTest.BatchCodec reads versions 1 to 1, not 2");

        TwoPhaseCommitSinkOperator<String, Batch> withoutCodec = new TwoPhaseCommitSinkOperator<>(new ListSink());
        withoutCodec.restoreOperatorState(List.of(new VersionedBytes(VersionedBytes.COMMITTABLE, 1, bytes)));
        assertThatThrownBy(() -> OneInputOperatorHarness.<String, Void>of(withoutCodec).restoreBetweenInputs(false).name("files").open())
                .hasMessageContaining("sink 'files': the checkpoint holds encoded committables (version 1) but the sink has no committable codec");
    }
}
