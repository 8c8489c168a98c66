package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.rocksdb.IncrementalJob.Expected;
import io.millrace.rocksdb.IncrementalJob.Taken;
import io.millrace.runtime.checkpoint.CheckpointMetadata;
import io.millrace.runtime.checkpoint.CheckpointMetadata.OperatorSnapshot;
import io.millrace.runtime.checkpoint.CheckpointMetadata.SubtaskSnapshot;
import io.millrace.runtime.checkpoint.LocalCheckpointStorage;
import io.millrace.runtime.checkpoint.NativeKeyedStateSnapshot;
import io.millrace.runtime.checkpoint.StateRestorer;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.heap.HeapKeyedStateBackend;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Incremental checkpoints of the RocksDB backend against real checkpoint storage in a temporary directory. */
class RocksDbIncrementalCheckpointTest {
    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    private Path base() {
        return dir.resolve("rocksdb");
    }

    @Test
    void secondCheckpoint_writesFarFewerBytesThanItRefersTo_reusingTheFilesOfTheFirst() throws Exception {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        try (IncrementalJob job = new IncrementalJob(base(), 1)) {
            job.update(20_000, 5_000, 256);
            Taken first = job.checkpoint(storage, 1);
            job.update(200, 5_000, 256);
            Taken second = job.checkpoint(storage, 2);

            assertThat(first.bytesWritten()).isEqualTo(first.referencedBytes());
            assertThat(second.bytesWritten()).isLessThan(second.referencedBytes() / 4);
            assertThat(second.sharedPaths()).containsAll(first.sharedPaths());
            assertThat(job.subtasks.get(0).backend.directory().resolve("snapshots")).as("local checkpoints after upload").isEmptyDirectory();
        }
    }

    @Test
    void retention_deletesSharedFilesNoRetainedCheckpointRefersTo_andKeepsTheOthers() throws Exception {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        try (IncrementalJob job = new IncrementalJob(base(), 2)) {
            job.update(1_500, 800, 64);
            Taken first = job.checkpoint(storage, 1);
            job.update(150, 800, 64);
            Taken second = job.checkpoint(storage, 2);
            job.update(150, 800, 64);
            job.subtasks.forEach(s -> s.backend.compact()); // every earlier SST file is replaced
            Taken third = job.checkpoint(storage, 3);
            assertThat(third.sharedPaths()).doesNotContainAnyElementsOf(first.sharedPaths());

            storage.retain(2);
            assertThat(sharedDirectory(storage)).isEqualTo(union(second.sharedPaths(), third.sharedPaths()));

            storage.retain(1);
            assertThat(sharedDirectory(storage)).isEqualTo(third.sharedPaths());
            assertThat(storage.latest(warnings::add)).get().extracting(CheckpointMetadata::checkpointId).isEqualTo(3L);
            assertThat(warnings).isEmpty();
        }
    }

    @Test
    void restore_atTheSameParallelism_opensTheFiles_andTheNextCheckpointUploadsOnlyWhatIsNew() throws Exception {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        try (IncrementalJob job = new IncrementalJob(base(), 2)) {
            job.update(4_000, 1_500, 256);
            Taken taken = job.checkpoint(storage, 1);
            Expected expected = job.expected();

            try (IncrementalJob restoring = new IncrementalJob(base(), 0)) {
                List<IncrementalJob.Subtask> restored = restoring.restore(storage, taken.metadata(), 2);
                assertThat(restored.get(0).backend.uploadedFileCount()).as("restored files count as uploaded").isPositive();
                restoring.subtasks.addAll(restored);
                Taken next = restoring.checkpoint(storage, 2);

                assertThat(next.sharedPaths()).containsAll(taken.sharedPaths());
                assertThat(next.bytesWritten()).isLessThan(next.referencedBytes() / 4);
                IncrementalJob.assertHolds(restored, expected);
            }
        }
    }

    @Test
    void restore_fromTwoSubtasksIntoOne_andFromOneIntoThree_holdsTheSameState() throws Exception {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        for (int[] scale : new int[][] {{2, 1}, {1, 3}}) {
            try (IncrementalJob job = new IncrementalJob(base(), scale[0])) {
                job.update(2_000, 800, 32);
                long id = scale[0] * 10L + scale[1];
                Taken taken = job.checkpoint(storage, id);
                Expected expected = job.expected();
                try (IncrementalJob restoring = new IncrementalJob(base(), 0)) {
                    IncrementalJob.assertHolds(restoring.restore(storage, taken.metadata(), scale[1]), expected);
                }
            }
        }
        try (Stream<Path> left = Files.list(base())) {
            assertThat(left).as("temporary restore databases and working directories").isEmpty();
        }
    }

    @Test
    void restoredStatesNotCreatedYet_areCarriedIntoTheNextCheckpoint_andCreatingThemWithAnotherKindFails() throws Exception {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        RocksDbConfig config = TestBackends.CONFIG.withBaseDirectory(base());
        KeyGroupRange all = new KeyGroupRange(0, IncrementalJob.MAX_PARALLELISM - 1);
        try (IncrementalJob job = new IncrementalJob(base(), 1)) {
            job.update(500, 200, 8);
            Taken taken = job.checkpoint(storage, 1);
            Expected expected = job.expected();

            RocksDbKeyedStateBackend carrier = new RocksDbKeyedStateBackend("op", all, IncrementalJob.MAX_PARALLELISM, new ManualClock(0), config);
            CheckpointMetadata second;
            try {
                new StateRestorer(taken.metadata(), storage).restoreKeyed("op", carrier, all);
                assertThat(carrier.unclaimedRestoredNames()).containsExactly("buckets", "timers", "total");
                var snapshot = (NativeKeyedStateSnapshot) carrier.snapshot(2, false);
                try {
                    var upload = snapshot.upload(storage, 2, "op-0");
                    second = new CheckpointMetadata(2, 2, false, "job", IncrementalJob.MAX_PARALLELISM, Map.of("op",
                            new OperatorSnapshot("op", "op", 1, List.of(new SubtaskSnapshot(0, 0, null, null, null, upload.state())))));
                    storage.commit(second);
                } finally {
                    snapshot.release();
                }
            } finally {
                carrier.close();
            }

            RocksDbKeyedStateBackend wrongKind = new RocksDbKeyedStateBackend("op", all, IncrementalJob.MAX_PARALLELISM, new ManualClock(0), config);
            try {
                new StateRestorer(second, storage).restoreKeyed("op", wrongKind, all);
                assertThatThrownBy(() -> wrongKind.stateStore().getListState(new ListStateDescriptor<Long>("total")))
                        .hasMessageContaining("state 'total' was checkpointed as value state but is now registered as list state");
            } finally {
                wrongKind.close();
            }
            try (IncrementalJob restoring = new IncrementalJob(base(), 0)) {
                IncrementalJob.assertHolds(restoring.restore(storage, second, 2), expected);
            }
        }
    }

    @Test
    void whenASharedFileIsDamaged_thenThePreviousCheckpointIsUsed_withAWarningNamingTheFile() throws Exception {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        try (IncrementalJob job = new IncrementalJob(base(), 1)) {
            job.update(3_000, 1_000, 64);
            Taken first = job.checkpoint(storage, 1);
            Expected atFirst = job.expected();
            job.update(300, 1_000, 64);
            Taken second = job.checkpoint(storage, 2);
            String onlyInSecond = second.sharedPaths().stream().filter(p -> !first.sharedPaths().contains(p)).findFirst().orElseThrow();
            try (RandomAccessFile f = new RandomAccessFile(storage.checkpointRoot().resolve(onlyInSecond).toFile(), "rw")) {
                f.seek(100);
                int b = f.read();
                f.seek(100);
                f.write(b ^ 0x40);
            }

            CheckpointMetadata latest = storage.latest(warnings::add).orElseThrow();

            assertThat(latest.checkpointId()).isEqualTo(1);
            assertThat(warnings).singleElement().asString()
                    .contains("checkpoint 2 is damaged (" + onlyInSecond + ": CRC mismatch); using checkpoint 1");
            try (IncrementalJob restoring = new IncrementalJob(base(), 0)) {
                IncrementalJob.assertHolds(restoring.restore(storage, latest, 1), atFirst);
            }
        }
    }

    @Test
    void whenTheHeapBackendIsAskedToRestoreAnIncrementalCheckpoint_thenTheErrorNamesTheCheckpointAndTheBackendToUse() throws Exception {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        try (IncrementalJob job = new IncrementalJob(base(), 1)) {
            job.update(100, 50, 8);
            Taken taken = job.checkpoint(storage, 4);
            HeapKeyedStateBackend heap = new HeapKeyedStateBackend(new KeyGroupRange(0, 127), 128, new ManualClock(0));

            assertThatThrownBy(() -> new StateRestorer(taken.metadata(), storage).restoreKeyed(IncrementalJob.OPERATOR, heap, heap.keyGroupRange()))
                    .hasMessageContaining("checkpoint 4 holds the keyed state of operator 'op' as files of the rocksdb state backend")
                    .hasMessageContaining("restore it with state.backend rocksdb");
        }
    }

    @Test
    void whenAnUploadFails_thenTheLocalCheckpointIsDeleted_andALaterCheckpointStillWorks() throws Exception {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        try (IncrementalJob job = new IncrementalJob(base(), 1)) {
            job.update(1_000, 500, 16);
            RocksDbKeyedStateBackend backend = job.subtasks.get(0).backend;
            Files.writeString(storage.checkpointRoot().resolve("shared"), "a file where the shared directory goes");
            var snapshot = (NativeKeyedStateSnapshot) backend.snapshot(1, false);
            try {
                assertThatThrownBy(() -> snapshot.upload(storage, 1, "op-0")).isInstanceOf(IOException.class);
            } finally {
                snapshot.release();
            }
            assertThat(backend.directory().resolve("snapshots")).isEmptyDirectory();

            Files.delete(storage.checkpointRoot().resolve("shared"));
            storage.discard(1);
            Expected expected = job.expected();
            Taken taken = job.checkpoint(storage, 2);
            try (IncrementalJob restoring = new IncrementalJob(base(), 0)) {
                IncrementalJob.assertHolds(restoring.restore(storage, taken.metadata(), 1), expected);
            }
        }
    }

    @Test
    void whenARestoreFindsADamagedFile_thenItFails_andLeavesNoTemporaryDatabase() throws Exception {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        try (IncrementalJob job = new IncrementalJob(base(), 2)) {
            job.update(1_000, 500, 16);
            Taken taken = job.checkpoint(storage, 1);
            String shared = taken.sharedPaths().iterator().next();
            try (RandomAccessFile f = new RandomAccessFile(storage.checkpointRoot().resolve(shared).toFile(), "rw")) {
                f.setLength(f.length() - 1);
            }
            Set<Path> before = listing(base());

            try (IncrementalJob restoring = new IncrementalJob(base(), 0)) {
                assertThatThrownBy(() -> restoring.restore(storage, taken.metadata(), 1)).hasMessageContaining(shared);
            }

            assertThat(listing(base())).isEqualTo(before);
        }
    }

    private static Set<String> sharedDirectory(LocalCheckpointStorage storage) throws Exception {
        return storage.sharedFiles().stream().map(name -> "shared/" + name).collect(Collectors.toSet());
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> u = new HashSet<>(a);
        u.addAll(b);
        return u;
    }

    private static Set<Path> listing(Path directory) throws Exception {
        try (Stream<Path> files = Files.list(directory)) {
            return files.collect(Collectors.toSet());
        }
    }
}
