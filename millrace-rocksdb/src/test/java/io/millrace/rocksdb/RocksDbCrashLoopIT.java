package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.runtime.checkpoint.CheckpointMetadata;
import io.millrace.runtime.checkpoint.CrashLoop;
import io.millrace.runtime.checkpoint.LocalCheckpointStorage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core's exactly-once crash loop with keyed state and windows on RocksDB: the child JVM is killed with
 * SIGKILL 20 times and restarted from its checkpoint directory; the committed output has every result
 * exactly once, no RocksDB working directory is left behind by the killed processes, and the shared files of
 * the incremental checkpoints are exactly those the retained checkpoints refer to.
 */
class RocksDbCrashLoopIT {
    @TempDir
    Path dir;

    @Test
    void whenKilledTwentyTimes_onRocksDb_thenCommittedOutputHasEveryResultExactlyOnce_andNoWorkingDirectoryIsLeft() throws Exception {
        Path state = dir.resolve("rocksdb-state");
        new CrashLoop(dir, "rocksdb", RocksDbConfig.DIRECTORY_OPTION + "=" + state, RocksDbConfig.MANAGED_MEMORY_OPTION + "=32mb")
                .run(20, 21, 200_000, 20_000, 0);
        try (Stream<Path> left = Files.list(state)) {
            assertThat(left).as("working directories after the last run").isEmpty();
        }
        assertThat(Files.readString(dir.resolve("job.log"))).contains("FINISHED");
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir.resolve("checkpoints"));
        Set<String> referenced = new HashSet<>();
        for (long id : storage.completed()) {
            CheckpointMetadata metadata = storage.load(storage.checkpointRoot().resolve("chk-" + id).toString());
            metadata.operators().values().forEach(op -> op.subtasks().stream().filter(s -> s.nativeKeyedState() != null)
                    .forEach(s -> s.nativeKeyedState().files().stream().filter(f -> f.shared())
                            .forEach(f -> referenced.add(f.handle().path().substring("shared/".length())))));
        }
        assertThat(referenced).as("shared files of the retained incremental checkpoints").isNotEmpty();
        assertThat(storage.sharedFiles()).as("shared files left after 20 kills: exactly the referenced ones")
                .containsExactlyInAnyOrderElementsOf(referenced);
    }
}
