package io.millrace.runtime.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.DataStream;
import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.runtime.task.HookRecordingLowering.Recorder;
import io.millrace.testing.Await;
import io.millrace.testing.FeedSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The operator hooks any operator may implement, seen from a custom operator in a running job:
 * {@code emitHeldBack} at each of its moments and {@code CheckpointListener}'s notices, all on the task thread.
 */
class OperatorHooksIT {
    @TempDir
    Path dir;

    private JobHandle start(String recorder, FeedSource<String> feed, boolean behindAnExchange, CollectSink<String> sink,
            Duration interval, Duration timeout) {
        PipelineConfig config = new PipelineConfig().parallelism(1);
        config.checkpoints().directory(dir.resolve("checkpoints")).interval(interval).timeout(timeout);
        Pipeline pipeline = Pipeline.create(config);
        DataStream<String> in = pipeline.fromSource(feed,
                WatermarkStrategy.<String>monotonous().withIdleness(Duration.ofMillis(50)), "feed");
        if (behindAnExchange) {
            in = in.rebalance();
        }
        in.<String>transform(new HookRecordingLowering.Spec(recorder)).sinkTo(sink);
        return pipeline.executeAsync(recorder);
    }

    private static long firstId(List<String> events, String prefix) {
        return events.stream().filter(e -> e.startsWith(prefix)).mapToLong(e -> Long.parseLong(e.substring(prefix.length())))
                .findFirst().orElseThrow();
    }

    @ParameterizedTest(name = "behind an exchange: {0}")
    @ValueSource(booleans = {false, true})
    void aCustomOperator_emitsWhatItHoldsAtEachMoment_andHearsOfEveryCompletedCheckpoint_onItsTaskThread(
            boolean behindAnExchange) throws Exception {
        String name = "hooks-" + behindAnExchange;
        Recorder recorder = HookRecordingLowering.recorder(name);
        FeedSource<String> feed = new FeedSource<>();
        CollectSink<String> sink = new CollectSink<>();
        JobHandle job = start(name, feed, behindAnExchange, sink, Duration.ofMillis(30), Duration.ofMinutes(1));

        feed.add("r1", 1);
        Await.until("r1 sent on running out of input", () -> recorder.saw("record:r1") && sink.results().contains("r1"));
        Await.until("a periodic checkpoint completed", () -> recorder.events().stream().anyMatch(e -> e.startsWith("complete:")));
        Await.until("the subtask turned idle", () -> recorder.saw("emit:IDLE"));
        feed.add("r2", 2);
        feed.end();
        assertThat(job.await(Duration.ofSeconds(30))).as("job ended").isNotNull();

        List<String> events = recorder.events();
        assertThat(sink.results()).containsExactly("r1", "r2");
        assertThat(recorder.threads).as("every call on one thread").hasSize(1);
        assertThat(events).as("r1 held, then the subtask waits for input and turns idle")
                .containsSubsequence("record:r1", "emit:WAITING_FOR_INPUT", "emit:IDLE", "record:r2");
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i).startsWith("snapshot:")) {
                assertThat(events.get(i - 1)).as("what comes before " + events.get(i)).isEqualTo("emit:CHECKPOINT_BARRIER");
            }
            if (events.get(i).startsWith("complete:")) {
                String id = events.get(i).substring("complete:".length());
                assertThat(events.subList(0, i)).as("snapshot before its completion").contains("snapshot:" + id);
            }
        }
        int end = events.indexOf("endInput");
        List<String> afterEnd = events.subList(end, events.size());
        String finalSnapshot = afterEnd.stream().filter(e -> e.startsWith("snapshot:")).findFirst().orElseThrow();
        assertThat(afterEnd).as("after the end of input")
                .containsSubsequence("endInput", "emit:CHECKPOINT_BARRIER", finalSnapshot, "emit:OUTPUT_FLUSH",
                        "complete:" + finalSnapshot.substring("snapshot:".length()), "close")
                .endsWith("close");
    }

    @Test
    void anAbandonedCheckpoint_isReportedToTheListener_andTheNextOneCompletes() throws Exception {
        Recorder recorder = HookRecordingLowering.recorder("aborts");
        FeedSource<String> feed = new FeedSource<>();
        JobHandle job = start("aborts", feed, true, new CollectSink<>(), Duration.ofHours(1), Duration.ofSeconds(2));
        feed.add("r1", 1);
        Await.until("r1 processed", () -> recorder.saw("record:r1"));

        recorder.blockNextSnapshot = true;
        var first = job.triggerCheckpoint();
        assertThatThrownBy(() -> first.get(30, TimeUnit.SECONDS)).as("the blocked checkpoint abandoned at its timeout")
                .isInstanceOf(ExecutionException.class);
        long blocked = firstId(recorder.events(), "snapshot:");
        recorder.release.countDown();
        Await.until("the abort told to the operator", () -> recorder.saw("aborted:" + blocked));
        long second = job.triggerCheckpoint().get(30, TimeUnit.SECONDS);
        Await.until("the next checkpoint's completion told", () -> recorder.saw("complete:" + second));
        feed.end();
        assertThat(job.await(Duration.ofSeconds(30))).as("job ended").isNotNull();

        List<String> events = recorder.events();
        assertThat(events)
                .containsSubsequence("snapshot:" + blocked, "aborted:" + blocked, "snapshot:" + second, "complete:" + second)
                .doesNotContain("complete:" + blocked);
        assertThat(recorder.threads).as("every call on one thread").hasSize(1);
    }
}
