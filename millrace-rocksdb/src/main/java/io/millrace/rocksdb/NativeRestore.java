package io.millrace.rocksdb;

import io.millrace.rocksdb.StoreLayout.State;
import io.millrace.runtime.state.NativeKeyedState.NativeFile;
import io.millrace.runtime.state.NativeKeyedState;
import io.millrace.runtime.state.SnapshotFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.Arrays;
import org.rocksdb.RocksIterator;

/**
 * Restores the files of an incremental checkpoint ({@link NativeKeyedState}): {@link #download} puts them
 * into a database directory (each file's size and CRC-32 checked as it is read), and {@link #copyRows}
 * copies the rows of a range of key groups from a database opened on them into a backend, for a restore
 * at another parallelism. Task thread.
 */
final class NativeRestore {
    private NativeRestore() {}

    /** Files that, put into an empty database directory, are the database of {@code part}. */
    static RocksDbStore.DatabaseFiles download(NativeKeyedState part, SnapshotFiles storage) {
        return database -> {
            for (NativeFile f : part.files()) {
                if (f.name().isEmpty() || f.name().contains("/") || f.name().contains("\\") || f.name().startsWith(".")) {
                    throw new IOException("'" + f.name() + "' is not a RocksDB file name (" + f.handle().path() + ")");
                }
                try (InputStream in = storage.openStateFile(f.handle())) {
                    Files.copy(in, database.resolve(f.name()));
                }
            }
        };
    }

    /**
     * Copies the whole schema dictionary (first, as full snapshot sections do), then every state's rows and
     * every timer of key groups {@code [from, to]} from {@code source} (a database opened on a checkpoint's
     * files, described by {@code layout}) into {@code target}.
     */
    static void copyRows(RocksDbStore source, StoreLayout layout, int from, int to, RestoredRows target) {
        BytesColumn schema = source.column(SchemaColumn.COLUMN);
        try (RocksIterator it = schema.scan()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                target.schemaRow(it.key(), it.value());
            }
            schema.checkStatus(it);
        }
        byte[] start = {(byte) (from >>> 8), (byte) from};
        for (State s : layout.states()) {
            target.beginState(s.name(), s.kind(), s.ttl());
            BytesColumn column = source.column("state:" + s.name());
            try (RocksIterator it = column.scan()) {
                for (it.seek(start); it.isValid(); it.next()) {
                    byte[] key = it.key();
                    if (keyGroup(key) > to) {
                        break;
                    }
                    target.stateRow(key, it.value());
                }
                column.checkStatus(it);
            }
        }
        for (String service : layout.timerServices()) {
            target.beginTimers(service);
            BytesColumn byGroup = source.column("timer-groups:" + service);
            try (RocksIterator it = byGroup.scan()) {
                for (it.seek(start); it.isValid(); it.next()) {
                    byte[] key = it.key();
                    if (keyGroup(key) > to) {
                        break;
                    }
                    target.timerRow(Arrays.copyOfRange(key, 2, key.length));
                }
                byGroup.checkStatus(it);
            }
        }
    }

    private static int keyGroup(byte[] key) {
        return ((key[0] & 0xFF) << 8) | (key[1] & 0xFF);
    }

    /** Where a part's database is restored from, for messages. */
    static String describe(long checkpointId, NativeKeyedState part) {
        return "checkpoint " + checkpointId + " (key groups [" + part.keyGroups().start() + ", " + part.keyGroups().end() + "])";
    }
}
