package io.millrace.runtime.task;

import io.millrace.api.source.EnumeratorCheckpoint;
import io.millrace.api.source.Source;
import io.millrace.api.source.SourceSplit;
import io.millrace.api.source.SplitEnumerator;
import io.millrace.api.source.SplitEnumeratorContext;
import io.millrace.api.time.Clock;
import io.millrace.runtime.checkpoint.StateRestorer;
import java.util.ArrayList;
import java.util.List;

/**
 * How one source of the job gets its splits when the job is wired: restored from the checkpoint (spread round robin
 * over the subtasks, whatever the parallelism that wrote them), or, on a fresh start, from {@link Source#createSplits}
 * for a source without an enumerator; a source with one gets its splits from the enumerator once it starts.
 */
final class SourceSetup {
    private final Source<Object, SourceSplit> source;
    private final int parallelism;
    final SplitCodecs codecs;
    private final List<SourceSplit> splits;
    private final SplitEnumerator<SourceSplit> enumerator;
    private final SplitEnumeratorContext<SourceSplit> enumeratorContext;

    @SuppressWarnings("unchecked")
    SourceSetup(String name, String operatorId, Source<Object, SourceSplit> source, int parallelism, StateRestorer restorer,
            SourceCoordinator coordinator, SourceTask[] tasks, Clock clock) throws Exception {
        this.source = source;
        this.parallelism = parallelism;
        this.codecs = new SplitCodecs(name, (io.millrace.api.source.VersionedCodec<SourceSplit>) source.splitCodec());
        EnumeratorCheckpoint restoredEnumerator = null;
        boolean restored = restorer != null && restorer.has(operatorId);
        List<SourceSplit> restoredSplits = null;
        if (restored) {
            SplitCodecs.Restored r = codecs.decode(restorer.operatorItems(operatorId, 0, 1));
            restoredSplits = r.splits();
            restoredEnumerator = r.enumerator();
        }
        this.enumeratorContext = coordinator.context(name, tasks, clock);
        this.enumerator = source.createEnumerator(enumeratorContext, restoredEnumerator);
        if (restored) {
            splits = restoredSplits;
        } else if (enumerator == null) {
            splits = new ArrayList<>(source.createSplits(parallelism));
        } else {
            splits = List.of();
        }
    }

    /** Whether the source's splits come from an enumerator while the job runs. */
    boolean dynamic() {
        return enumerator != null;
    }

    /** The splits subtask {@code subtask} starts with: the k-th split goes to subtask {@code k % parallelism}. */
    List<SourceSplit> splitsFor(int subtask) {
        List<SourceSplit> mine = new ArrayList<>();
        for (int k = subtask; k < splits.size(); k += parallelism) {
            mine.add(splits.get(k));
        }
        return mine;
    }

    /** Starts the enumerator, once every subtask of the source is wired. */
    void startEnumerator(SourceCoordinator coordinator) throws Exception {
        if (enumerator != null) {
            coordinator.register(enumeratorContext, enumerator);
        }
    }

    Source<Object, SourceSplit> source() {
        return source;
    }
}
