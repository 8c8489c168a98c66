package io.millrace.runtime.state;

import java.util.List;

/**
 * Keyed state of one subtask as its backend's own files rather than key-group sections: what an
 * incremental checkpoint of the RocksDB backend records. Shared files (in the storage's shared area,
 * written once and referenced by every checkpoint that needs them) and private files (in the checkpoint's
 * own directory) together are the backend's database as of the checkpoint; the backend that wrote them is
 * the only one that can read them.
 *
 * @param backend the name of the state backend that wrote the files ({@code rocksdb})
 * @param keyGroups the key groups the files hold, those of the subtask that wrote them
 * @param files every file of the snapshot, each with the name the backend gave it locally
 */
public record NativeKeyedState(String backend, KeyGroupRange keyGroups, List<NativeFile> files) {
    public NativeKeyedState {
        files = List.copyOf(files);
    }

    /**
     * One file: its local name (e.g. {@code 000012.sst}, {@code MANIFEST-000005}), where the storage keeps
     * it, and whether it lives in the shared area.
     */
    public record NativeFile(String name, StateHandle handle, boolean shared) {}

    /** Bytes of all files, shared ones included: the size of the state as of the checkpoint. */
    public long totalBytes() {
        long n = 0;
        for (NativeFile f : files) {
            n += f.handle().size();
        }
        return n;
    }
}
