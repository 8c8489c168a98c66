package io.millrace.rocksdb;

import io.millrace.runtime.state.NativeKeyedState;
import io.millrace.runtime.state.StateHandle;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The SST files of one backend's database that are already in checkpoint storage, by local file name
 * ({@code 000012.sst}), with their shared handles: an incremental snapshot claims these again instead of
 * writing them. SST file numbers are never reused within a database, so a name always means the same
 * bytes. Filled by uploads and by a restore of the database's files; thread-safe (snapshot writer threads
 * and the task thread).
 */
final class UploadedFiles {
    private final Map<String, StateHandle> byName = new HashMap<>();

    synchronized StateHandle get(String name) {
        return byName.get(name);
    }

    synchronized void put(String name, StateHandle handle) {
        byName.put(name, handle);
    }

    /** Forgets the files the database no longer has (compacted away): they will not be claimed again. */
    synchronized void retainOnly(Set<String> names) {
        byName.keySet().retainAll(names);
    }

    /** The shared files of a restored snapshot count as uploaded. */
    synchronized void adopt(NativeKeyedState restored) {
        for (NativeKeyedState.NativeFile f : restored.files()) {
            if (f.shared()) {
                byName.put(f.name(), f.handle());
            }
        }
    }

    synchronized int size() {
        return byName.size();
    }
}
