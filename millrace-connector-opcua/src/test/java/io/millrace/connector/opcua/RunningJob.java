package io.millrace.connector.opcua;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.testing.Await;
import java.time.Duration;
import java.util.List;

/** A continuous job reading an OPC UA source into a {@link CollectSink}, for the tests; {@link #close} cancels it. */
final class RunningJob implements AutoCloseable {
    final JobHandle handle;
    final CollectSink<OpcUaRecord> sink = new CollectSink<>();

    private RunningJob(OpcUaSource source, java.nio.file.Path checkpoints) {
        PipelineConfig config = new PipelineConfig().parallelism(1);
        if (checkpoints != null) {
            config.checkpoints().directory(checkpoints).interval(Duration.ofMillis(200));
        }
        Pipeline p = Pipeline.create(config);
        p.fromSource(source, WatermarkStrategy.<OpcUaRecord>boundedOutOfOrderness(Duration.ofSeconds(1)), "plc").sinkTo(sink);
        handle = p.executeAsync("opcua test");
    }

    static RunningJob start(OpcUaSource source) {
        return new RunningJob(source, null);
    }

    /** With checkpoints every 200 ms in {@code checkpoints}; a job started again with the same directory resumes from it. */
    static RunningJob start(OpcUaSource source, java.nio.file.Path checkpoints) {
        return new RunningJob(source, checkpoints);
    }

    List<OpcUaDataChange> changes() {
        return sink.results().stream().filter(r -> r instanceof OpcUaDataChange).map(r -> (OpcUaDataChange) r).toList();
    }

    List<OpcUaDataChange> changes(String nodeId) {
        return changes().stream().filter(c -> c.nodeId().equals(nodeId)).toList();
    }

    List<OpcUaGap> gaps() {
        return sink.results().stream().filter(r -> r instanceof OpcUaGap).map(r -> (OpcUaGap) r).toList();
    }

    /** Waits until a change of {@code nodeId} with {@code value} arrived, failing early if the job ended. */
    void awaitValue(String nodeId, Object value) {
        Await.until("a change of " + nodeId + " to " + value, Duration.ofSeconds(30), () -> {
            failIfEnded();
            return changes(nodeId).stream().anyMatch(c -> java.util.Objects.equals(c.value(), value));
        });
    }

    void awaitChanges(String nodeId, int count) {
        Await.until(count + " changes of " + nodeId, Duration.ofSeconds(30), () -> {
            failIfEnded();
            return changes(nodeId).size() >= count;
        });
    }

    /** Throws the job's failure if it ended. */
    void failIfEnded() {
        if (handle.isDone()) {
            try {
                handle.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new AssertionError("the job ended early");
        }
    }

    @Override
    public void close() {
        handle.cancel();
        try {
            handle.await(Duration.ofSeconds(20));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
