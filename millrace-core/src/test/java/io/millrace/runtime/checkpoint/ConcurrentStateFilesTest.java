package io.millrace.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.runtime.checkpoint.CheckpointMetadata.OperatorSnapshot;
import io.millrace.runtime.checkpoint.CheckpointMetadata.SubtaskSnapshot;
import io.millrace.runtime.state.SnapshotFiles.StateFileWriter;
import io.millrace.runtime.state.StateHandle;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Subtask threads write the state files of the same checkpoints at the same time. */
class ConcurrentStateFilesTest {
    private static final int SUBTASKS = 4;
    private static final int CHECKPOINTS = 3;

    @TempDir
    Path dir;

    record Written(int subtask, StateHandle handle, byte[] content) {}

    @Test
    void whenSubtasksWriteConcurrently_thenEveryHandleIsValid_andEveryCheckpointCommits() throws Exception {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        CyclicBarrier together = new CyclicBarrier(SUBTASKS);
        ExecutorService threads = Executors.newFixedThreadPool(SUBTASKS);
        try {
            List<Callable<List<Written>>> subtasks = new ArrayList<>();
            for (int s = 0; s < SUBTASKS; s++) {
                int subtask = s;
                subtasks.add(() -> {
                    List<Written> written = new ArrayList<>();
                    for (long id = 1; id <= CHECKPOINTS; id++) {
                        together.await(10, TimeUnit.SECONDS);
                        written.add(writeSubtask(storage, id, subtask));
                    }
                    return written;
                });
            }
            List<Future<List<Written>>> results = threads.invokeAll(subtasks, 30, TimeUnit.SECONDS);

            for (long id = 1; id <= CHECKPOINTS; id++) {
                List<SubtaskSnapshot> snapshots = new ArrayList<>();
                for (Future<List<Written>> result : results) {
                    Written w = result.get().get((int) id - 1);
                    assertThat(w.handle().path()).isEqualTo("chk-" + id + "/sum-" + w.subtask() + ".keyed");
                    assertThat(w.handle().size()).isEqualTo(w.content().length);
                    try (InputStream in = storage.openStateFile(w.handle())) {
                        assertThat(in.readAllBytes()).isEqualTo(w.content());
                    }
                    snapshots.add(new SubtaskSnapshot(w.subtask(), w.subtask() * 32, new long[] {0}, w.handle(), null));
                }
                storage.commit(new CheckpointMetadata(id, id, false, "job", 128,
                        Map.of("sum", new OperatorSnapshot("sum", "Sum", SUBTASKS, snapshots))));
            }
        } finally {
            threads.shutdownNow();
        }

        List<String> warnings = new ArrayList<>();
        assertThat(storage.latest(warnings::add)).get().extracting(CheckpointMetadata::checkpointId).isEqualTo((long) CHECKPOINTS);
        assertThat(warnings).isEmpty();
        assertThat(storage.completed()).containsExactly(1L, 2L, 3L);
    }

    /** Writes a mix of single bytes, primitives and blocks larger than the writer's buffer. */
    private static Written writeSubtask(CheckpointStorage storage, long id, int subtask) throws IOException {
        Random random = new Random(id * 100 + subtask);
        byte[] block = new byte[70_000 + random.nextInt(10_000)];
        random.nextBytes(block);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        try (StateFileWriter writer = storage.createStateFile(id, "sum-" + subtask + ".keyed")) {
            DataOutputStream out = new DataOutputStream(new Tee(writer.stream(), expected));
            for (int i = 0; i < 5_000; i++) {
                out.writeLong(random.nextLong());
                out.write(i);
            }
            out.write(block);
            out.writeUTF("end of subtask " + subtask);
            out.flush();
            assertThat(writer.position()).isEqualTo(expected.size());
            return new Written(subtask, writer.closeAndGetHandle(), expected.toByteArray());
        }
    }

    /** Writes to the state file and remembers what was written. */
    private static final class Tee extends OutputStream {
        private final OutputStream file;
        private final ByteArrayOutputStream copy;

        Tee(OutputStream file, ByteArrayOutputStream copy) {
            this.file = file;
            this.copy = copy;
        }

        @Override
        public void write(int b) throws IOException {
            file.write(b);
            copy.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            file.write(b, off, len);
            copy.write(b, off, len);
        }
    }
}
