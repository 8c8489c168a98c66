package io.millrace.runtime.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.source.Boundedness;
import io.millrace.api.source.DataCodec;
import io.millrace.api.source.EnumeratorCheckpoint;
import io.millrace.api.source.InputStatus;
import io.millrace.api.source.ReaderOutput;
import io.millrace.api.source.Source;
import io.millrace.api.source.SourceReader;
import io.millrace.api.source.SourceReaderContext;
import io.millrace.api.source.SourceSplit;
import io.millrace.api.source.SplitEnumerator;
import io.millrace.api.source.SplitEnumeratorContext;
import io.millrace.api.source.VersionedCodec;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.testing.Await;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A source whose splits appear while the job runs: its enumerator finds them, the runtime hands them to the readers,
 * the enumerator's state and the readers' positions go into checkpoints in versioned bytes, and readers hear of
 * completed checkpoints.
 */
class SplitEnumeratorIT {
    static final int PER_SPLIT = 100;
    /** Per test: how many splits exist "upstream" now; the enumerator discovers up to that many. */
    static final Map<String, AtomicInteger> AVAILABLE = new ConcurrentHashMap<>();
    static final Map<String, List<Long>> COMPLETED = new ConcurrentHashMap<>();

    @TempDir
    Path dir;

    /** Split {@code k} holds the values {@code k*100 .. k*100+99}; {@code next} is the next to emit. */
    record Part(int k, long next) implements SourceSplit {
        @Override
        public String splitId() {
            return "part-" + k;
        }
    }

    static final class PartCodec extends DataCodec<Part> {
        @Override
        public int version() {
            return 1;
        }

        @Override
        protected void write(Part p, DataOutputStream out) throws IOException {
            out.writeInt(p.k());
            out.writeLong(p.next());
        }

        @Override
        protected Part read(int version, DataInputStream in) throws IOException {
            return new Part(in.readInt(), in.readLong());
        }
    }

    static final class GrowingSource implements Source<Long, Part> {
        final String key;

        GrowingSource(String key) {
            this.key = key;
        }

        @Override
        public Boundedness boundedness() {
            return Boundedness.CONTINUOUS_UNBOUNDED;
        }

        @Override
        public SplitEnumerator<Part> createEnumerator(SplitEnumeratorContext<Part> context, EnumeratorCheckpoint restored) {
            int handedOut = restored == null ? 0 : ByteBuffer.wrap(restored.state()).getInt();
            return new SplitEnumerator<>() {
                int assigned = handedOut;

                @Override
                public void start() {
                    discover();
                }

                @Override
                public void discover() {
                    int now = AVAILABLE.get(key).get();
                    for (; assigned < now; assigned++) {
                        Part p = new Part(assigned, assigned * (long) PER_SPLIT);
                        context.assignSplits(context.defaultOwner(p.splitId()), List.of(p));
                    }
                }

                @Override
                public long discoveryIntervalMillis() {
                    return 10;
                }

                @Override
                public byte[] snapshotState(long checkpointId) {
                    return ByteBuffer.allocate(4).putInt(assigned).array();
                }
            };
        }

        @Override
        public SourceReader<Long, Part> createReader(SourceReaderContext context) {
            return new SourceReader<>() {
                final List<Part> parts = new ArrayList<>();

                @Override
                public void addSplits(List<Part> splits) {
                    parts.addAll(splits);
                }

                @Override
                public void noMoreSplits() {}

                @Override
                public InputStatus pollNext(ReaderOutput<Long> output) {
                    boolean any = false;
                    for (int i = 0; i < parts.size(); i++) {
                        Part p = parts.get(i);
                        long end = (p.k() + 1L) * PER_SPLIT;
                        if (p.next() < end) {
                            output.collect(p.next());
                            parts.set(i, new Part(p.k(), p.next() + 1));
                            any = true;
                        }
                    }
                    return any ? InputStatus.MORE_AVAILABLE : InputStatus.NOTHING_AVAILABLE;
                }

                @Override
                public List<Part> snapshotState() {
                    return List.copyOf(parts);
                }

                @Override
                public void notifyCheckpointComplete(long checkpointId) {
                    COMPLETED.get(key).add(checkpointId);
                }

                @Override
                public void close() {}
            };
        }

        @Override
        public VersionedCodec<Part> splitCodec() {
            return new PartCodec();
        }
    }

    private JobHandle run(String key, CollectSink<Long> sink, Path restoreFrom) {
        PipelineConfig config = new PipelineConfig().parallelism(2);
        config.checkpoints().directory(dir.resolve("cp")).interval(Duration.ofMillis(100));
        if (restoreFrom != null) {
            config.checkpoints().restoreFrom(restoreFrom);
        }
        Pipeline p = Pipeline.create(config);
        p.fromSource(new GrowingSource(key), WatermarkStrategy.noWatermarks(), "growing").uid("growing").sinkTo(sink);
        return p.executeAsync("growing-" + key);
    }

    private static List<Long> values(int fromSplit, int toSplit) {
        return LongStream.range(fromSplit * (long) PER_SPLIT, toSplit * (long) PER_SPLIT).boxed().collect(Collectors.toList());
    }

    @Test
    void whenSplitsAppearWhileRunning_thenTheyAreReadOnceAndARestoredJobReadsOnlyNewOnes() throws Exception {
        String key = "grow";
        AVAILABLE.put(key, new AtomicInteger(2));
        COMPLETED.put(key, new CopyOnWriteArrayList<>());
        CollectSink<Long> first = new CollectSink<>();
        JobHandle job = run(key, first, null);
        Await.until("the first two splits read", () -> first.size() == 2 * PER_SPLIT);
        AVAILABLE.get(key).set(5);
        Await.until("three more splits discovered and read", () -> first.size() == 5 * PER_SPLIT);
        Await.until("a reader heard of a completed checkpoint", () -> !COMPLETED.get(key).isEmpty());
        String savepoint = job.stopWithSavepoint().get(30, TimeUnit.SECONDS);
        job.await();
        assertThat(first.results()).containsExactlyInAnyOrderElementsOf(values(0, 5));
        Set<Integer> owners = new HashSet<>();
        for (int k = 0; k < 5; k++) {
            owners.add(Math.floorMod(("part-" + k).hashCode(), 2));
        }
        assertThat(owners).as("splits spread over both subtasks").hasSize(2);

        AVAILABLE.get(key).set(6);
        CollectSink<Long> second = new CollectSink<>();
        JobHandle restored = run(key, second, Path.of(savepoint));
        Await.until("the sixth split read", () -> second.size() >= PER_SPLIT);
        String again = restored.stopWithSavepoint().get(30, TimeUnit.SECONDS);
        restored.await();
        assertThat(again).isNotNull();
        assertThat(second.results()).as("the restored enumerator hands out only the split it had not").containsExactlyInAnyOrderElementsOf(values(5, 6));
    }
}
