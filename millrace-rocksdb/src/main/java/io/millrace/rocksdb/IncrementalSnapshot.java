package io.millrace.rocksdb;

import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.NativeKeyedState.NativeFile;
import io.millrace.runtime.state.NativeKeyedState;
import io.millrace.runtime.state.NativeKeyedStateSnapshot;
import io.millrace.runtime.state.SnapshotFiles;
import io.millrace.runtime.state.StateHandle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * An incremental checkpoint of a {@link RocksDbKeyedStateBackend}: a native RocksDB checkpoint (hard links
 * of the database's files, taken on the task thread) that {@link #upload} writes to checkpoint storage on
 * the snapshot writer thread. SST files go to the shared area, each only once per backend: one uploaded
 * before (or restored) is claimed again ({@link UploadedFiles}); the manifest, options, current and log
 * files are small and private to each checkpoint. {@link #release} deletes the local checkpoint directory;
 * closing the backend deletes it too (its working directory holds it), and an upload still running then
 * fails.
 *
 * <pre>
 *  TAKEN --upload--> UPLOADED --release--> RELEASED (local files deleted)
 *    |-----------------release-----------------^          release again: no-op
 * </pre>
 */
final class IncrementalSnapshot implements NativeKeyedStateSnapshot {
    private final Path local;
    private final KeyGroupRange range;
    private final UploadedFiles uploaded;
    private final String instanceId;
    private boolean released;

    /** {@code instanceId} makes shared file names unique to the database that wrote them. */
    IncrementalSnapshot(Path local, KeyGroupRange range, UploadedFiles uploaded, String instanceId) {
        this.local = local;
        this.range = range;
        this.uploaded = uploaded;
        this.instanceId = instanceId;
    }

    @Override
    public synchronized Upload upload(SnapshotFiles storage, long checkpointId, String namePrefix) throws IOException {
        if (released) {
            throw new IllegalStateException("the RocksDB checkpoint in " + local + " was released before it was uploaded");
        }
        List<String> names;
        try (Stream<Path> files = Files.list(local)) {
            names = files.map(f -> f.getFileName().toString()).sorted().toList();
        }
        List<NativeFile> files = new ArrayList<>(names.size());
        Set<String> ssts = new HashSet<>();
        long written = 0;
        for (String name : names) {
            Path file = local.resolve(name);
            if (name.endsWith(".sst")) {
                ssts.add(name);
                StateHandle handle = uploaded.get(name);
                if (handle == null || !storage.reuseSharedFile(checkpointId, handle)) {
                    handle = copy(file, storage.createSharedFile(checkpointId, namePrefix + "-" + instanceId + "-" + name));
                    written += handle.size();
                    uploaded.put(name, handle);
                }
                files.add(new NativeFile(name, handle, true));
            } else {
                StateHandle handle = copy(file, storage.createStateFile(checkpointId, namePrefix + "." + name));
                written += handle.size();
                files.add(new NativeFile(name, handle, false));
            }
        }
        uploaded.retainOnly(ssts);
        return new Upload(new NativeKeyedState(RocksDbStateBackendProvider.NAME, range, files), written);
    }

    @Override
    public synchronized void release() {
        if (released) {
            return;
        }
        released = true;
        try {
            RocksDbStore.deleteRecursively(local);
        } catch (UncheckedIOException e) {
            // the backend's close deletes its whole working directory, this one included
        }
    }

    private static StateHandle copy(Path file, SnapshotFiles.StateFileWriter writer) throws IOException {
        try (writer) {
            Files.copy(file, writer.stream());
            return writer.closeAndGetHandle();
        }
    }
}
