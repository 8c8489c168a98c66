package io.millrace.runtime.checkpoint;

import static io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT.LINES;
import static io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT.readLines;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.DataStream;
import io.millrace.api.metrics.OperatorMetrics;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.testing.Await;
import io.millrace.testing.FeedSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Operator uids map state from a savepoint to a changed job: names and positions may change; state of an
 * operator the new job lacks fails the restore, naming it, unless dropping it is allowed.
 */
class OperatorUidRestoreIT {
    static final int KEYS = 3;

    @TempDir
    Path dir;

    private Path out() {
        return dir.resolve("out");
    }

    private PipelineConfig config(String job, Path restoreFrom, boolean allowNonRestored) {
        PipelineConfig config = new PipelineConfig().parallelism(2);
        config.checkpoints().directory(dir.resolve(job)).allowNonRestoredState(allowNonRestored);
        if (restoreFrom != null) {
            config.checkpoints().restoreFrom(restoreFrom);
        }
        return config;
    }

    /** Version 1: feed -> map "noop" -> running count (uid "count", name "count v1") -> files. 30 records, then a savepoint. */
    private Path savepointOfVersion1() throws Exception {
        FeedSource<Long> feed = new FeedSource<>();
        Pipeline p = Pipeline.create(config("v1", null, false));
        p.fromSource(feed, WatermarkStrategy.noWatermarks(), "feed").uid("feed")
                .map(i -> i).name("noop").uid("noop")
                .keyBy(i -> i % KEYS).process(new ExactlyOnceRecoveryIT.RunningCount()).name("count v1").uid("count")
                .sinkTo(TransactionalFileSink.of(out(), LINES)).uid("files");
        JobHandle job = p.executeAsync("uids-v1");
        for (long i = 0; i < 30; i++) {
            feed.add(i);
        }
        Await.until("30 records counted", () -> job.metrics().sum("count v1", OperatorMetrics::recordsIn) == 30);
        String savepoint = job.stopWithSavepoint().get(20, TimeUnit.SECONDS);
        job.await();
        assertThat(readLines(out())).hasSize(30);
        return Path.of(savepoint);
    }

    /** Runs a version-2 job over keys 0, 1, 2 and returns the lines it added. */
    private List<String> runVersion2(Path savepoint, boolean allowNonRestored, String countUid) throws Exception {
        List<String> before = readLines(out());
        FeedSource<Long> feed = new FeedSource<>();
        Pipeline p = Pipeline.create(config("v2", savepoint, allowNonRestored));
        DataStream<Long> input = p.fromSource(feed, WatermarkStrategy.noWatermarks(), "feed (renamed)").uid("feed");
        input.filter(i -> i >= 0).name("a new filter")
                .keyBy(i -> i % KEYS).process(new ExactlyOnceRecoveryIT.RunningCount()).name("count v2").uid(countUid)
                .sinkTo(TransactionalFileSink.of(out(), LINES)).name("files v2").uid("files");
        JobHandle job = p.executeAsync("uids-v2");
        feed.add(0L).add(1L).add(2L).end();
        job.await();
        List<String> added = new ArrayList<>(readLines(out()));
        before.forEach(added::remove);
        return added;
    }

    @Test
    void whenOperatorsKeepTheirUids_thenStateIsRestoredDespiteNewNamesAndPositions() throws Exception {
        Path savepoint = savepointOfVersion1();

        assertThat(runVersion2(savepoint, false, "count")).containsExactlyInAnyOrder("0,11", "1,11", "2,11");
    }

    @Test
    void whenAnOperatorWithStateIsGone_thenTheRestoreFailsNamingIt() throws Exception {
        Path savepoint = savepointOfVersion1();

        assertThatThrownBy(() -> runVersion2(savepoint, false, "count-renamed"))
                .hasMessageContaining("count ('count v1')")
                .hasMessageContaining("allowNonRestoredState");
    }

    @Test
    void whenDroppingStateIsAllowed_thenTheJobStartsWithoutThatState() throws Exception {
        Path savepoint = savepointOfVersion1();

        assertThat(runVersion2(savepoint, true, "count-renamed")).containsExactlyInAnyOrder("0,1", "1,1", "2,1");
    }
}
