package io.millrace.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.metrics.CheckpointMetrics;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A running embedded job answers savepoint requests written into {@code <checkpoint dir>/control/}. */
class ControlRequestsIT {
    @TempDir
    Path dir;

    private JobHandle job;

    @AfterEach
    void cancel() throws InterruptedException {
        if (job != null) {
            job.cancel();
            job.await(Duration.ofSeconds(10));
        }
    }

    private JobHandle start() {
        PipelineConfig config = new PipelineConfig().parallelism(1);
        config.checkpoints().directory(dir.resolve("job")).interval(Duration.ofMillis(100));
        Pipeline p = Pipeline.create(config);
        p.fromSource(GeneratorSource.builder(i -> i).unbounded().ratePerSecond(2_000).build(), WatermarkStrategy.<Long>noWatermarks(), "numbers")
                .uid("numbers")
                .sinkTo(TransactionalFileSink.jsonLines(dir.resolve("out")))
                .uid("files");
        job = p.executeAsync("controlled");
        Await.until("a checkpoint", () -> job.metrics().checkpoints().stream().anyMatch(CheckpointMetrics::completed));
        return job;
    }

    private ControlResponse awaitResponse(ControlRequest request, Path control) throws Exception {
        Await.until("a response to " + request, () -> {
            try {
                return request.response(control).isPresent();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        return request.response(control).orElseThrow();
    }

    @Test
    void whenASavepointRequestAppears_thenTheJobTakesOneAndAnswersWithItsPath_andKeepsRunning() throws Exception {
        start();
        Path control = ControlRequest.directoryOf(dir.resolve("job"));
        ControlRequest request = new ControlRequest(ControlRequest.Kind.SAVEPOINT, "a1");
        request.send(control);

        ControlResponse response = awaitResponse(request, control);

        assertThat(response.ok()).as("response %s", response).isTrue();
        assertThat(Path.of(response.path()).resolve("_metadata")).exists();
        assertThat(job.isDone()).isFalse();
        request.withdraw(control);
        assertThat(control).isEmptyDirectory();
    }

    @Test
    void whenAStopRequestAppears_thenTheJobStopsWithASavepoint_andAnswersBeforeAwaitReturns() throws Exception {
        start();
        Path control = ControlRequest.directoryOf(dir.resolve("job"));
        ControlRequest request = new ControlRequest(ControlRequest.Kind.STOP_WITH_SAVEPOINT, "s1");
        request.send(control);

        assertThat(job.await(Duration.ofSeconds(20))).as("the job ended").isNotNull();

        Optional<ControlResponse> response = request.response(control);
        assertThat(response).as("answered by the time await returned").isPresent();
        assertThat(response.get().ok()).isTrue();
        assertThat(Path.of(response.get().path()).resolve("_metadata")).exists();
    }

    @Test
    void requestsWrittenBeforeTheJobStarted_areDeletedUnread_andOrphanResponsesAreDeleted() throws Exception {
        Path control = Files.createDirectories(ControlRequest.directoryOf(dir.resolve("job")));
        ControlRequest earlier = new ControlRequest(ControlRequest.Kind.STOP_WITH_SAVEPOINT, "old");
        earlier.send(control);
        Files.writeString(control.resolve("savepoint-gone.response"), "status: ok\npath: /x\n");
        start();
        ControlRequest fresh = new ControlRequest(ControlRequest.Kind.SAVEPOINT, "new");
        fresh.send(control);

        assertThat(awaitResponse(fresh, control).ok()).isTrue();

        assertThat(job.isDone()).as("the earlier stop request was not acted on").isFalse();
        assertThat(control.resolve(earlier.requestFileName())).doesNotExist();
        assertThat(earlier.response(control)).isEmpty();
        assertThat(control.resolve("savepoint-gone.response")).doesNotExist();
    }

    @Test
    void aRequestSentAgainAfterItsAnswer_isNotActedOnTwice() throws Exception {
        start();
        Path control = ControlRequest.directoryOf(dir.resolve("job"));
        ControlRequest request = new ControlRequest(ControlRequest.Kind.SAVEPOINT, "once");
        request.send(control);
        String first = awaitResponse(request, control).path();
        Files.delete(control.resolve(request.responseFileName()));

        request.send(control);
        ControlRequest probe = new ControlRequest(ControlRequest.Kind.SAVEPOINT, "probe");
        probe.send(control);
        awaitResponse(probe, control);

        // the probe's savepoint was asked for no earlier than a second one for the resent request would have been
        assertThat(request.response(control)).as("no second answer to %s (first: %s)", request, first).isEmpty();
    }
}
