package io.millrace.rocksdb;

import static io.millrace.runtime.state.ReadingVersions.READING;
import static io.millrace.runtime.state.ReadingVersions.V1;
import static io.millrace.runtime.state.ReadingVersions.V2;
import static io.millrace.runtime.state.ReadingVersions.V3;
import static io.millrace.runtime.state.ReadingVersions.readingV1;
import static io.millrace.testing.ClassVersions.component;
import static io.millrace.testing.ClassVersions.withContextLoader;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import io.millrace.rocksdb.IncrementalJob.Expected;
import io.millrace.rocksdb.IncrementalJob.Taken;
import io.millrace.runtime.checkpoint.CheckpointMetadata.OperatorSnapshot;
import io.millrace.runtime.checkpoint.CheckpointMetadata.SubtaskSnapshot;
import io.millrace.runtime.checkpoint.CheckpointMetadata;
import io.millrace.runtime.checkpoint.LocalCheckpointStorage;
import io.millrace.runtime.checkpoint.StateRestorer;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.NativeKeyedStateSnapshot;
import io.millrace.runtime.state.heap.HeapKeyedStateBackend;
import io.millrace.runtime.state.serde.StateSchemaException;
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
            job.subtasks.forEach(s -> s.backend.compact()); // the states' earlier SST files are replaced
            Taken third = job.checkpoint(storage, 3);
            Set<String> replaced = new HashSet<>(first.sharedPaths());
            replaced.removeAll(third.sharedPaths()); // all but the unchanged schema column's file
            assertThat(replaced).isNotEmpty();

            storage.retain(2);
            assertThat(sharedDirectory(storage)).isEqualTo(union(second.sharedPaths(), third.sharedPaths()));

            storage.retain(1);
            assertThat(sharedDirectory(storage)).isEqualTo(third.sharedPaths()).doesNotContainAnyElementsOf(replaced);
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
                        .hasMessageContaining("state 'total': the job registers it as list state, but the checkpoint or savepoint holds value state");
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

    @Test
    void evolvedRecordState_restoredFromAnIncrementalCheckpoint_isMappedAtTheSameAndOtherParallelisms_andAnIncompatibleVersionFails()
            throws Exception {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        int machines = 40;
        CheckpointMetadata written = withContextLoader(V1, () -> {
            List<RocksDbKeyedStateBackend> backends = readingBackends(2);
            try {
                for (int m = 0; m < machines; m++) {
                    RocksDbKeyedStateBackend owner = owner(backends, "press-" + m);
                    owner.setCurrentKey("press-" + m);
                    owner.stateStore().getState(new ValueStateDescriptor<>("latest")).update(readingV1("press-" + m, m, 0.5, "FAULT", "bolt", 1.5f));
                }
                return checkpointNatively(storage, backends, 7);
            } finally {
                backends.forEach(RocksDbKeyedStateBackend::close);
            }
        });
        assertThat(written.operators().get("op").subtasks()).allSatisfy(s -> assertThat(s.nativeKeyedState()).isNotNull());

        for (int parallelism : new int[] {2, 3}) {
            withContextLoader(V2, () -> {
                List<RocksDbKeyedStateBackend> backends = readingBackends(parallelism);
                try {
                    StateRestorer restorer = new StateRestorer(written, storage);
                    List<ValueState<Object>> latest = new ArrayList<>();
                    for (RocksDbKeyedStateBackend b : backends) {
                        restorer.restoreKeyed("op", b, b.keyGroupRange());
                        assertThat(b.schema.usedShapes("latest")).as("dictionary restored with the files").isNotEmpty();
                        latest.add(b.stateStore().getState(new ValueStateDescriptor<>("latest")));
                    }
                    for (int m = 0; m < machines; m++) {
                        RocksDbKeyedStateBackend owner = owner(backends, "press-" + m);
                        owner.setCurrentKey("press-" + m);
                        Object r = latest.get(backends.indexOf(owner)).value();
                        assertThat(r.getClass().getClassLoader()).isSameAs(V2);
                        assertThat(component(r, "count")).as("parallelism %d, machine %d", parallelism, m).isEqualTo((long) m);
                        assertThat(component(r, "unit")).isNull();
                        assertThat(component(((List<?>) component(r, "parts")).get(0), "weight")).isEqualTo(1.5d);
                    }
                } finally {
                    backends.forEach(RocksDbKeyedStateBackend::close);
                }
                return null;
            });
        }

        for (int parallelism : new int[] {2, 1}) {
            withContextLoader(V3, () -> {
                List<RocksDbKeyedStateBackend> backends = readingBackends(parallelism);
                try {
                    RocksDbKeyedStateBackend first = backends.get(0);
                    new StateRestorer(written, storage).restoreKeyed("op", first, first.keyGroupRange());
                    assertThatThrownBy(() -> first.stateStore().getState(new ValueStateDescriptor<>("latest")))
                            .as("parallelism %d", parallelism)
                            .isInstanceOf(StateSchemaException.class)
                            .hasMessageContaining("state 'latest' of operator 'op'")
                            .hasMessageContaining("field 'count' of record " + READING);
                } finally {
                    backends.forEach(RocksDbKeyedStateBackend::close);
                }
                return null;
            });
        }
    }

    /** Backends of operator "op" at {@code parallelism}, created with the thread's context class loader. */
    private List<RocksDbKeyedStateBackend> readingBackends(int parallelism) {
        RocksDbConfig config = TestBackends.CONFIG.withBaseDirectory(base());
        List<RocksDbKeyedStateBackend> backends = new ArrayList<>();
        for (int i = 0; i < parallelism; i++) {
            backends.add(new RocksDbKeyedStateBackend("op", KeyGroups.rangeFor(i, IncrementalJob.MAX_PARALLELISM, parallelism),
                    IncrementalJob.MAX_PARALLELISM, new ManualClock(0), config));
        }
        return backends;
    }

    private static RocksDbKeyedStateBackend owner(List<RocksDbKeyedStateBackend> backends, Object key) {
        int group = KeyGroups.keyGroupFor(key, IncrementalJob.MAX_PARALLELISM);
        return backends.get(KeyGroups.subtaskFor(group, IncrementalJob.MAX_PARALLELISM, backends.size()));
    }

    /** Takes, uploads and commits an incremental checkpoint of every backend. */
    private static CheckpointMetadata checkpointNatively(LocalCheckpointStorage storage, List<RocksDbKeyedStateBackend> backends, long id)
            throws Exception {
        List<SubtaskSnapshot> parts = new ArrayList<>();
        for (int i = 0; i < backends.size(); i++) {
            RocksDbKeyedStateBackend b = backends.get(i);
            b.setCurrentKey(null);
            var snapshot = (NativeKeyedStateSnapshot) b.snapshot(id, false);
            try {
                parts.add(new SubtaskSnapshot(i, b.keyGroupRange().start(), null, null, null, snapshot.upload(storage, id, "op-" + i).state()));
            } finally {
                snapshot.release();
            }
        }
        CheckpointMetadata metadata = new CheckpointMetadata(id, id, false, "job", IncrementalJob.MAX_PARALLELISM,
                Map.of("op", new OperatorSnapshot("op", "op", backends.size(), parts)));
        storage.commit(metadata);
        return metadata;
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
