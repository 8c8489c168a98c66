package io.millrace.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.CheckpointConfig;
import io.millrace.api.ConfigOptions;
import io.millrace.api.ConfigValues;
import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.testing.FeedSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where savepoints go, what they need, and that taking one leaves the job running. */
class SavepointOptionsTest {
    @TempDir
    Path dir;

    private static JobHandle feedJob(PipelineConfig config, FeedSource<Long> feed, CollectSink<Long> sink) {
        Pipeline p = Pipeline.create(config);
        p.fromSource(feed, WatermarkStrategy.noWatermarks(), "feed").uid("feed").keyBy(i -> i % 2).reduce(Long::sum).uid("sum").sinkTo(sink);
        return p.executeAsync("options");
    }

    @Test
    void whenTheJobHasNoCheckpointDirectory_thenSavepointsFailNamingTheOption() throws Exception {
        FeedSource<Long> feed = new FeedSource<>();
        JobHandle job = feedJob(new PipelineConfig().parallelism(1), feed, new CollectSink<>());
        try {
            assertThatThrownBy(() -> job.triggerSavepoint().get(5, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasMessageContaining("'checkpoint directory'");
            assertThatThrownBy(() -> job.stopWithSavepoint().get(5, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasMessageContaining("'checkpoint directory'");
        } finally {
            feed.end();
            job.await();
        }
    }

    @Test
    void whenRestoreFromIsSetWithoutACheckpointDirectory_thenTheJobIsRefusedNamingBothOptions() {
        PipelineConfig config = new PipelineConfig().parallelism(1);
        config.checkpoints().restoreFrom(dir.resolve("savepoint-1-00000000"));

        assertThatThrownBy(() -> feedJob(config, new FeedSource<>(), new CollectSink<>()))
                .hasMessageContaining("restoreFrom").hasMessageContaining("'checkpoint directory'");
    }

    @Test
    void whenASavepointIsTaken_thenItGoesToTheDefaultDirectory_andTheJobGoesOn() throws Exception {
        PipelineConfig config = new PipelineConfig().parallelism(1);
        config.checkpoints().directory(dir.resolve("job"));
        FeedSource<Long> feed = new FeedSource<>();
        CollectSink<Long> sink = new CollectSink<>();
        JobHandle job = feedJob(config, feed, sink);
        feed.add(1L);

        Path savepoint = Path.of(job.triggerSavepoint().get(20, TimeUnit.SECONDS));
        feed.add(3L).end();
        JobResult result = job.await();

        assertThat(savepoint.getParent()).isEqualTo(dir.resolve("job").resolve("savepoints").toAbsolutePath());
        assertThat(savepoint.resolve("_metadata")).exists();
        assertThat(result.cancelled()).isFalse();
        assertThat(sink.results()).containsExactly(1L, 4L);
    }

    @Test
    void whenASavepointDirectoryIsSet_thenStopWithSavepointWritesThere_andCancelsTheJob() throws Exception {
        PipelineConfig config = new PipelineConfig().parallelism(1);
        config.checkpoints().directory(dir.resolve("job")).savepointDirectory(dir.resolve("elsewhere"));
        FeedSource<Long> feed = new FeedSource<>();
        JobHandle job = feedJob(config, feed, new CollectSink<>());

        Path savepoint = Path.of(job.stopWithSavepoint().get(20, TimeUnit.SECONDS));

        assertThat(job.isDone()).isTrue();
        assertThat(job.await().cancelled()).isTrue();
        assertThat(savepoint.getParent()).isEqualTo(dir.resolve("elsewhere").toAbsolutePath());
        try (var left = Files.list(dir.resolve("job").resolve("checkpoints"))) {
            assertThat(left.filter(Files::isDirectory)).as("checkpoint directories left behind").isEmpty();
        }
    }

    @Test
    void whenSavepointOptionsComeFromAConfigFile_thenTheyReachTheCheckpointConfig() {
        ConfigValues values = ConfigValues.parse(List.of("checkpoint.dir: /var/job", "checkpoint.periodic: false",
                "checkpoint.savepoint-dir: /var/savepoints", "checkpoint.restore-from: /var/savepoints/savepoint-7-0a0b0c0d"), "job.conf");

        CheckpointConfig c = ConfigOptions.apply(new PipelineConfig(), values).checkpoints();

        assertThat(c.periodic()).isFalse();
        assertThat(c.savepointDirectory()).isEqualTo(Path.of("/var/savepoints").toAbsolutePath());
        assertThat(c.restoreFrom()).isEqualTo(Path.of("/var/savepoints/savepoint-7-0a0b0c0d").toAbsolutePath());
        assertThat(new CheckpointConfig().directory(Path.of("/var/job")).savepointDirectory())
                .isEqualTo(Path.of("/var/job/savepoints").toAbsolutePath());
    }
}
