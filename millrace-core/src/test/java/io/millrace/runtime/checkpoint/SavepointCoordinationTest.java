package io.millrace.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.CheckpointConfig;
import io.millrace.api.time.ManualClock;
import io.millrace.runtime.state.StateHandle;
import io.millrace.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Savepoints and periodic checkpoints in the coordinator: never two in progress at once, savepoints
 * survive retention, and nothing is started after a stop-with-savepoint.
 */
class SavepointCoordinationTest {
    @TempDir
    Path dir;

    private final List<Long> triggered = new CopyOnWriteArrayList<>();
    private final List<Long> notified = new CopyOnWriteArrayList<>();
    private final ManualClock clock = new ManualClock(1_000_000);
    private CheckpointCoordinator coordinator;
    private LocalCheckpointStorage storage;

    private CheckpointCoordinator start(CheckpointConfig config) throws Exception {
        storage = new LocalCheckpointStorage(dir);
        coordinator = new CheckpointCoordinator(config, storage, "job", 128, 1, clock, new CheckpointCoordinator.TaskGateway() {
            @Override
            public void triggerSources(long checkpointId, long timestamp, boolean savepoint) {
                triggered.add(checkpointId);
            }

            @Override
            public void notifyComplete(long checkpointId) {
                notified.add(checkpointId);
            }
        }, 0);
        coordinator.start();
        return coordinator;
    }

    @AfterEach
    void stop() {
        if (coordinator != null) {
            coordinator.stop();
        }
    }

    private void ack(long id) throws Exception {
        StateHandle state = StateFileTest.write(storage, id, "op-0.op", 10);
        coordinator.acknowledge(new SubtaskAck(id, List.of(new SubtaskAck.OperatorPart("op", "op", 1,
                new CheckpointMetadata.SubtaskSnapshot(0, 0, null, null, state), Long.MIN_VALUE)), 0, 0, 10));
    }

    private static CheckpointConfig periodic() {
        return new CheckpointConfig().directory(Path.of("unused")).interval(Duration.ofSeconds(1)).retained(1);
    }

    @Test
    void whenASavepointIsAskedDuringAPeriodicCheckpoint_thenItStartsAfterIt_andRetentionKeepsIt() throws Exception {
        start(periodic());
        clock.advance(Duration.ofSeconds(1));
        Await.until("periodic checkpoint 1 triggered", () -> triggered.contains(1L));

        CompletableFuture<CheckpointMetadata> savepoint = coordinator.triggerNow(true);
        assertThat(triggered).containsExactly(1L);

        ack(1);
        Await.until("savepoint 2 triggered", () -> triggered.contains(2L));
        ack(2);
        assertThat(savepoint.get().savepoint()).isTrue();
        clock.advance(Duration.ofSeconds(1));
        Await.until("periodic checkpoint 3 triggered", () -> triggered.contains(3L));
        ack(3);
        clock.advance(Duration.ofSeconds(1));
        Await.until("periodic checkpoint 4 triggered", () -> triggered.contains(4L));
        ack(4);

        assertThat(storage.completed()).containsExactly(4L); // retained(1)
        Path savepointDir = storage.savepointPath(2).orElseThrow();
        assertThat(storage.load(savepointDir.toString()).checkpointId()).isEqualTo(2);
        assertThat(notified).containsExactly(1L, 2L, 3L, 4L);
    }

    @Test
    void whenStoppingWithASavepoint_thenNoCheckpointStartsAfterIt() throws Exception {
        start(periodic());
        CompletableFuture<CheckpointMetadata> savepoint = coordinator.triggerSavepointBeforeStop();
        Await.until("savepoint 1 triggered", () -> triggered.contains(1L));

        CompletableFuture<CheckpointMetadata> later = coordinator.triggerNow(false);
        clock.advance(Duration.ofSeconds(5));
        ack(1);

        assertThat(savepoint.get().checkpointId()).isEqualTo(1);
        assertThat(later).isCompletedExceptionally();
        clock.advance(Duration.ofSeconds(5));
        coordinator.stop();
        assertThat(triggered).containsExactly(1L);
    }

    @Test
    void whenAStopSavepointIsAbandoned_thenPeriodicCheckpointsResume() throws Exception {
        start(periodic().timeout(Duration.ofSeconds(2)));
        CompletableFuture<CheckpointMetadata> savepoint = coordinator.triggerSavepointBeforeStop();
        clock.advance(Duration.ofSeconds(3));
        Await.until("savepoint abandoned", savepoint::isDone);
        assertThat(savepoint).isCompletedExceptionally();

        clock.advance(Duration.ofSeconds(1));
        Await.until("periodic checkpoint 2 triggered", () -> triggered.contains(2L));
    }

    @Test
    void whenPeriodicIsOff_thenOnlyRequestedCheckpointsStart() throws Exception {
        start(periodic().periodic(false));
        clock.advance(Duration.ofSeconds(10));
        CompletableFuture<CheckpointMetadata> savepoint = coordinator.triggerNow(true);
        ack(1);

        assertThat(savepoint.get().savepoint()).isTrue();
        clock.advance(Duration.ofSeconds(10));
        coordinator.stop();
        assertThat(triggered).containsExactly(1L);
    }
}
